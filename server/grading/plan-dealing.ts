/**
 * Which item of the grading plan a lab plays next, and how long items take.
 *
 * A failure is shown to the learner on their own lab's timeline, so a failure
 * found in a spare lab is played a second time in theirs. That second play is
 * what made a wrong answer slow: the targeted adversaries that catch most
 * wrong answers are also the longest runs (lesson 8's crash waits out a 5 s
 * TTL). So the learner's lab takes the longest targeted item left, where a
 * failure needs no second play, and the spare labs take the rest in plan
 * order, short probes first, where a second play costs little. How long an
 * item takes is learned from the passing runs this server has graded; until
 * then the plan's order stands.
 */

/** What dealing needs to know of a plan item. */
export interface Dealt {
  /** A targeted adversary or probe: its run aims at one bug and its failure is decisive on its own. */
  targeted: boolean;
}

/**
 * The plan index `lab` should play next, taken out of `queue` (plan indices still to play, in plan order).
 * The learner's own lab takes the longest targeted item (an item whose length is not known yet counts as
 * short), else the longest item of any kind; a spare lab takes the first in plan order.
 */
export function takeNext(queue: number[], plan: readonly Dealt[], ownLab: boolean, estimateMs: (index: number) => number | undefined): number | undefined {
  if (queue.length === 0) return undefined;
  let at = 0;
  if (ownLab) {
    const targeted = queue.filter((index) => plan[index]!.targeted);
    const candidates = targeted.length > 0 ? targeted : queue;
    let best = -1;
    for (const index of candidates) {
      const ms = estimateMs(index) ?? -1;
      if (ms > best) {
        best = ms;
        at = queue.indexOf(index);
      }
    }
  }
  return queue.splice(at, 1)[0];
}

/**
 * After an untargeted item failed, the targeted items still to play, first in plan order: each is aimed at one bug
 * and its sentence names it, where a scenario's counter-example names only what the checker saw.
 */
export function takeNextTargeted(queue: number[], plan: readonly Dealt[]): number | undefined {
  const at = queue.findIndex((index) => plan[index]!.targeted);
  return at === -1 ? undefined : queue.splice(at, 1)[0];
}

/** How many items the memory keeps (a lesson's plan has a dozen or two; eight lessons fit many times over). */
const MAX_ITEMS = 2000;
/** A new measure's weight: recent runs count most, one odd run does not swing the order. */
const WEIGHT = 0.3;

/**
 * How long each plan item took when it passed, per lesson, item and seed: a moving average over this server's
 * checks. Only passing runs teach it, so a learner's slow wrong answer cannot reorder another's check (and a
 * wrong estimate only reorders: every item still plays).
 */
export class ItemDurations {
  private readonly ms = new Map<string, number>();

  constructor(private readonly capacity = MAX_ITEMS) {}

  estimate(key: string): number | undefined {
    return this.ms.get(key);
  }

  learn(key: string, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const before = this.ms.get(key);
    this.ms.delete(key); // re-inserted last: the map's order is least recently learned first
    this.ms.set(key, before === undefined ? ms : before + WEIGHT * (ms - before));
    if (this.ms.size > this.capacity) this.ms.delete(this.ms.keys().next().value!);
  }
}

/** The key of one plan item: the same lesson, item and seed is the same run. */
export const itemKey = (slug: string, id: string, seed: number): string => `${slug}\u0000${id}\u0000${seed}`;

/** The server's memory of item lengths, shared by every check. */
export const itemDurations = new ItemDurations();

/**
 * "Check my solution": the plan (`grading-plan.ts`) dealt to the learner's
 * own lab (so they watch it happen) and the spare labs the server lends
 * (`plan-dealing.ts`), each run judged as it promises (`judge.ts`). A failed
 * targeted adversary is the answer at once; a failed scenario or random
 * schedule waits for the earlier items and the targeted ones still playing,
 * whose counter-example may say more. A failure seen in a spare lab is played again in the
 * learner's: its counter-example is what the learner needs next.
 */
import type { GradeProgress, GradeResult, GradedRun } from '@/lib/grading';
import type { Lesson } from '@/lib/lessons/load';
import type { CheckRunTag, RunEnded } from '@/lib/run';
import type { LabRuns } from '../runs/lab-runs';
import { callWindow } from './command-trace';
import { gradingPlan, type LessonWords } from './grading-plan';
import { explainingCounterExample, judged } from './judge';
import { probeErrorText } from './probe-words';
import { say } from '@/lib/checker/said';
import { words } from '@/lib/words';
import type { Locale } from '@/i18n/routing';
import { lessonIn } from './lesson-words';
import { BUSY_SAID, disturbed, settleDisturbed } from './disturbance';
import { itemDurations, itemKey, takeNext, takeNextTargeted, type ItemDurations } from './plan-dealing';
import { LabLanes } from './lab-lanes';

/** What one run of the plan came to. */
interface Graded {
  run: GradedRun;
  result: RunEnded | null;
  /** Its run was one the machine disturbed (each time it was played, once replays are done): nothing can be said. */
  busy?: true;
}

/**
 * "Check my solution". `spares` are extra labs the grader may use at once (the server lends them when it has
 * room): the plan's runs are dealt to the labs in order, and the first failure stops the rest. A failure seen
 * in a spare lab is played again in the learner's own lab, so the counter-example is on their timeline.
 */
export async function gradeExercise(
  lesson: Lesson,
  code: string,
  runs: LabRuns,
  onProgress: (progress: GradeProgress) => void = () => undefined,
  spares: readonly LabRuns[] = [],
  /** Whether the machine disturbed a run (disturbance.ts); tests stand in for a busy machine here. */
  isDisturbed: (ended: RunEnded) => boolean = disturbed,
  /** How long plan items took before: the learner's lab takes the longest targeted one (plan-dealing.ts). */
  durations: ItemDurations = itemDurations,
  /** The page's language: the words of the answer (a failed check's title, a probe's sentence, the hint) are in it. */
  locale: Locale = 'en',
): Promise<GradeResult> {
  // A worker ready for each lab's next run: booting one is a second or two on a busy machine, per run.
  const coolDown = runs.keepWorkersWarm(spares.length);
  try {
    return await grade(lesson, code, runs, onProgress, spares, isDisturbed, durations, { locale, lesson: await lessonIn(lesson, locale) });
  } finally {
    coolDown();
  }
}

async function grade(
  lesson: Lesson,
  code: string,
  runs: LabRuns,
  onProgress: (progress: GradeProgress) => void,
  spares: readonly LabRuns[],
  isDisturbed: (ended: RunEnded) => boolean,
  durations: ItemDurations,
  inWords: LessonWords,
): Promise<GradeResult> {
  // What runs and how it is judged is the English lesson's; only the words are the page's language.
  const plan = gradingPlan(lesson, code, inWords);
  const minCompleted = lesson.exercise.liveness.minCompletedExecutions;
  const hiddenTotal = plan.filter((p) => p.hidden).length;
  const shown = plan.map((planned, index) => {
    const hiddenIndex = plan.slice(0, index + 1).filter((p) => p.hidden).length;
    // A hidden check is named only once it fails: its title says what it goes after.
    return planned.hidden ? { id: 'hidden', title: `Hidden check ${hiddenIndex} of ${hiddenTotal}`, hiddenIndex } : { id: planned.id, title: planned.title, hiddenIndex };
  });
  /** How the learner's page names a run of the check it shows (RunInfo.check): never as their own run. */
  const tag = (index: number): CheckRunTag => ({
    n: index + 1,
    total: plan.length,
    title: plan[index]!.hidden ? null : plan[index]!.words.title,
    hidden: plan[index]!.hidden ? { n: shown[index]!.hiddenIndex, total: hiddenTotal } : null,
  });
  const lanes = new LabLanes([runs, ...spares], 'Check my solution');
  const done: (Graded | undefined)[] = new Array(plan.length);
  const queue = plan.map((_, index) => index);
  const key = (index: number) => itemKey(lesson.slug, plan[index]!.id, plan[index]!.seed);
  let finished = 0;
  /** The item whose failure is the answer; `final` once nothing can replace it. */
  let failedAt: number | null = null;
  let final = false;

  const runItem = async (index: number, lane: LabRuns): Promise<Graded | null> => {
    const planned = plan[index]!;
    // Its place in the plan, as the page's toolbar numbers the run it shows ("the check's run 3 of 12").
    const kind = { hidden: planned.hidden, probe: planned.probe, place: index + 1 };
    if (!planned.program.ok) {
      const reasonWords = planned.program.words;
      return { run: { scenarioId: planned.id, scenarioTitle: planned.words.title, ...kind, seed: planned.seed, runId: '', passed: false, reason: planned.program.error, ...(reasonWords ? { reasonWords } : {}) }, result: null };
    }
    const began = performance.now();
    // A probe's failure is JSON by key: the judge reads it as it came, the learner's timeline shows its English sentence.
    const probeErrors: string[] = [];
    const clientError = (error: string): string => {
      const shown = probeErrorText(error, planned);
      if (shown !== error) probeErrors.push(error);
      return shown;
    };
    const input = { code: planned.program.code, scenario: planned.scenario, topology: lesson.topology, fresh: true, checker: planned.checker };
    const played = await lanes.play(lane, input, { clientError, check: tag(index) });
    if (played === null) return null; // another lab found the failure first
    const { info, ended: result } = played;
    const reason = judged(planned, result, minCompleted, () => lane.historyOf(info.runId), info.startedAt, probeErrors);
    const run: GradedRun = reason
      ? {
          scenarioId: planned.id,
          scenarioTitle: planned.words.title,
          ...kind,
          seed: planned.seed,
          runId: info.runId,
          passed: false,
          reason: reason.message,
          ...(reason.words ? { reasonWords: reason.words } : {}),
          ...(reason.shown ? { reasonShown: reason.shown } : {}),
        }
      : { scenarioId: shown[index]!.id, scenarioTitle: shown[index]!.title, ...kind, seed: planned.seed, runId: info.runId, passed: true };
    if (!isDisturbed(result)) {
      if (!reason) durations.learn(key(index), performance.now() - began);
      return { run, result };
    }
    // A run the machine kept waiting for a CPU says nothing either way (see below): a failure may be the
    // machine's, and a pass may be a probe whose moment slipped by (a lock that expired before the release it
    // was meant to interrupt began), which would let a wrong lock through.
    return { run, result, busy: true };
  };

  /** What each lab is playing, so a failure can stop the plays it makes pointless. */
  const playing = new Map<LabRuns, number>();
  /** Items stopped unfinished because of a failure: played after all if that failure does not stand. */
  let stopped: number[] = [];
  const stop = (lab: LabRuns, index: number) => {
    stopped.push(index);
    lanes.stop(lab);
  };
  const failed = (index: number, lab: LabRuns) => {
    if (final) return;
    if (plan[index]!.targeted) {
      // Aimed at one bug and decisive on its own: the answer now, whatever else is still playing.
      failedAt = index;
      final = true;
      for (const [other, at] of playing) if (other !== lab) stop(other, at);
    } else if (failedAt === null || index < failedAt) {
      // A scenario or random schedule may fail by timing, and its counter-example names what the checker saw, not
      // the mechanism: an earlier item still playing, or a targeted one anywhere in the plan (aimed at one bug, its
      // sentence says which), may replace it, so only the labs playing later untargeted items stop, and the targeted
      // items not yet played are played before the answer (`deal`). (Lesson 5's
      // votes kept between tries failed the split-brain scenario first on a busy machine, and the answer told a
      // learner whose quorum() was right that a quorum must be three, while the probe that names the kept votes
      // was stopped half-way.)
      failedAt = index;
      for (const [other, at] of playing) if (at > index && !plan[at]!.targeted) stop(other, at);
    }
  };
  const deal = async (lab: LabRuns) => {
    while (!final && disturbedFailures.length === 0) {
      // Every item in turn until something fails; after an untargeted failure only the targeted items left, any of
      // which, failing too, is the clearer answer.
      const index = failedAt === null ? takeNext(queue, plan, lab === runs, (i) => durations.estimate(key(i))) : takeNextTargeted(queue, plan);
      if (index === undefined) return;
      playing.set(lab, index);
      if (lab === runs) onProgress({ slug: lesson.slug, done: finished, total: plan.length, current: { scenarioId: shown[index]!.id, seed: plan[index]!.seed, title: shown[index]!.title, hidden: tag(index).hidden } });
      const graded = await runItem(index, lab);
      playing.delete(lab);
      if (graded === null) return;
      done[index] = graded;
      finished++;
      if (graded.busy) disturbedFailures.push(index);
      else if (!graded.run.passed) failed(index, lab);
    }
  };
  const replayOwn = (index: number) => {
    lanes.reopenOwn();
    onProgress({ slug: lesson.slug, done: finished - 1, total: plan.length, current: { scenarioId: shown[index]!.id, seed: plan[index]!.seed, title: shown[index]!.title, hidden: tag(index).hidden } });
    return runItem(index, runs);
  };

  /** Items whose run the machine disturbed (failed or passed): to be played again alone before the plan goes on. */
  let disturbedFailures: number[] = [];
  /** Failures seen in a spare lab that held when played again in the learner's: they depend on timing. */
  const heldOnReplay: { index: number; graded: Graded }[] = [];
  let undecided = false;
  /** The answer, and whether its run is on the learner's timeline. */
  let answer: { index: number; graded: Graded; onTimeline: boolean } | null = null;
  while (answer === null && !undecided) {
    await lanes.each(deal);
    if (failedAt !== null) {
      const index: number = failedAt;
      const first = done[index]!;
      // Seen in the learner's lab (or no run at all: the program could not be made): that is the answer.
      if (!first.result || (await ranIn(runs, first.run.runId))) {
        answer = { index, graded: first, onTimeline: first.result !== null };
        break;
      }
      // Seen in a spare lab: play it again where the learner watches, and show that run if it fails there too.
      const replay = await replayOwn(index);
      if (replay && !replay.run.passed && !replay.busy) answer = { index, graded: replay, onTimeline: true };
      else if (replay?.busy) answer = { index, graded: noted(first, 'busy'), onTimeline: false };
      else {
        // It held this time: the failure depends on timing. It still stands unless another item fails in the
        // learner's view (a clearer answer), so the plan goes on, the items it stopped included.
        heldOnReplay.push({ index, graded: noted(first, 'held') });
        failedAt = null;
        final = false;
        queue.push(...stopped);
        queue.sort((a, b) => a - b);
        stopped = [];
        lanes.reopenAll();
      }
      continue;
    }
    if (disturbedFailures.length === 0) break; // the plan is played out
    // A run the machine held up: the labs finish what they play and take nothing new, then it is played again
    // alone in the learner's lab (the check itself no longer loads the machine). A failure in an undisturbed
    // run is the learner's; an undisturbed pass clears the item and the plan goes on. A machine that stays
    // busy decides nothing for the item, so the check cannot pass: it ends there, "not decided", rather than
    // load that machine with the rest of the plan.
    for (const index of disturbedFailures.sort((a, b) => a - b)) {
      // A failure in the disturbed run is evidence: it is hunted (settleDisturbed: several quiet replays of the
      // same schedule) before the item may pass; one replay that happened to pass is not enough.
      const settled = await settleDisturbed(done[index]!, (g) => g.busy === true, (g) => !g.run.passed, () => replayOwn(index));
      if (settled === null) break;
      done[index] = settled.last;
      if (settled.settled === 'failed') {
        answer = { index, graded: settled.last, onTimeline: true };
        break;
      }
      if (settled.settled === 'undecided') {
        undecided = true;
        break;
      }
    }
    disturbedFailures = [];
  }
  // Nothing failed in the learner's view, but a failure that depends on timing still fails the check.
  if (answer === null && heldOnReplay.length > 0) {
    const first = heldOnReplay.sort((a, b) => a.index - b.index)[0]!;
    answer = { ...first, onTimeline: false };
  }

  if (answer === null) {
    const graded = done.filter((g): g is Graded => g !== undefined);
    onProgress({ slug: lesson.slug, done: plan.length, total: plan.length, current: null });
    // No failure the learner's code can be blamed for; one the machine may have caused leaves nothing decided.
    if (undecided || graded.some((g) => g.busy)) return { slug: lesson.slug, passed: false, busy: BUSY_SAID.message, busyWords: BUSY_SAID.words, total: plan.length, runs: graded.map((g) => g.run), failure: null };
    return { slug: lesson.slug, passed: true, total: plan.length, runs: graded.map((g) => g.run), failure: null };
  }
  const { index: failedIndex, graded: failure, onTimeline } = answer;
  // The items that passed, in plan order, then the answer.
  const graded = done.flatMap((g, index) => (g !== undefined && index !== failedIndex && g.run.passed ? [g.run] : []));
  graded.push(failure.run);
  const counterExample = failure.result && onTimeline ? explainingCounterExample(failure.result.verdict) : null;
  // A probe's failure has no checker counter-example: point the timeline at the call it was about.
  const window = counterExample === null && onTimeline ? callWindow(runs.historyOf(failure.run.runId), plan[failedIndex]!.trace) : null;
  onProgress({ slug: lesson.slug, done: graded.length, total: plan.length, current: null });
  return {
    slug: lesson.slug,
    passed: false,
    total: plan.length,
    runs: graded,
    failure: { runId: failure.run.runId, counterExample, ...(window ? { window } : {}), message: failure.run.reason ?? 'failed', ...(failure.run.reasonWords ? { words: failure.run.reasonWords } : {}), ...(failure.run.reasonShown ? { shown: failure.run.reasonShown } : {}), hint: inWords.lesson.hints[0] ?? null },
  };
}

/** A failure seen in a lab beside the learner's, with what became of it in theirs. */
function noted(graded: Graded, what: 'busy' | 'held'): Graded {
  const { run } = graded;
  const said = say('grading.besideYours', { reason: run.reasonWords ? { words: run.reasonWords } : (run.reason ?? 'it failed'), what });
  // A probe's sentence the server wrote in the page's language goes inside the page's words; `message` stays English.
  const { reasonShown, ...rest } = run;
  const shownWords = reasonShown ? words('grading.besideYours', { reason: reasonShown, what }) : said.words;
  return { ...graded, run: { ...rest, reason: said.message, reasonWords: shownWords } };
}

/** Whether the run was one of this lab's (its last run, or the one going on). */
async function ranIn(runs: LabRuns, runId: string): Promise<boolean> {
  return runs.whenEnded(runId).then(
    () => true,
    () => false,
  );
}

/**
 * "Explore": Jepsen's loop on a learner's program. Schedules of faults are
 * drawn from the lesson's fault space (lib/schedules), one seed after
 * another, and played in the learner's lab and the spare labs at once; the
 * first run whose safety breaks stops the search. That schedule is then
 * shrunk — faults removed, shortened, moved earlier, clients dropped — while
 * it still breaks, and the smallest one is played last in the learner's own
 * lab, so the timeline shows it. Only safety counts: a random schedule may
 * rightly starve a lock of progress (liveness) or make a program throw.
 */
import type { Topology } from '@/lib/cluster';
import type { ExploreProgress, ExploreResult } from '@/lib/explore';
import { LabOperationError } from '@/lib/result';
import type { RunEnded, RunStartInput } from '@/lib/run';
import type { Scenario } from '@/lib/scenario';
import type { Lesson } from '@/lib/lessons/load';
import { describeSchedule, faultCount, firedSteps, generateSchedule, kindsFor, shrink, type FaultSpace } from '@/lib/schedules';

import { describeSpace } from '@/lib/schedules';
import { describeScheduleWords } from '@/lib/schedules/describe';
import { describeSpaceWords } from '@/lib/schedules/space-words';
import type { LabRuns } from '../runs/lab-runs';
import { LabLanes } from './lab-lanes';
import { safetyBroken, safetyBrokenSaid } from './judge';
import { refusal } from '@/lib/refusal-words';

/** The minimal schedule is played again in the learner's lab when it was not the last run there; a timing-sensitive one gets a few tries. */
const REPLAY_TRIES = 5;

export interface ExploreTarget {
  code: string;
  topology: Topology;
  checker: NonNullable<RunStartInput['checker']>;
  space: FaultSpace;
  /**
   * The lesson's schedules aimed at its bugs (its "Break it" scenarios, its adversaries that are scenarios), played
   * on the learner's program before any random one: a bug the lesson breaks is found in seconds, not by luck.
   * `title` is the schedule's title in the page's language: the one a learner reads when it breaks their code.
   */
  targeted?: readonly TargetedSchedule[];
}

export interface TargetedSchedule {
  scenario: Scenario;
  title: string;
}

/**
 * The lesson's schedules aimed at its bugs: its "Break it" scenarios, then its adversaries that are schedules (a probe
 * replaces the learner's driver, so it is the check's, not a search of their program), each with its title from
 * `shown`, the lesson in the page's language.
 */
export function targetedSchedules(lesson: Lesson, shown: Lesson): TargetedSchedule[] {
  const scenarioTitle = new Map(shown.lessonScenarios.map((s) => [s.scenario.id, s.scenario.title]));
  const adversaryTitle = new Map(shown.adversaries.map((a) => [a.id, a.scenario.title]));
  return [
    ...lesson.lessonScenarios.filter((s) => s.role === 'break').map((s) => ({ scenario: s.scenario, title: scenarioTitle.get(s.scenario.id) ?? s.scenario.title })),
    ...lesson.adversaries.filter((a) => a.probeCode === null).map((a) => ({ scenario: a.scenario, title: adversaryTitle.get(a.id) ?? a.scenario.title })),
  ];
}

export interface ExploreOptions {
  seconds: number;
  seed: number;
  now?: () => number;
}

interface Found {
  scenario: Scenario;
  ended: RunEnded;
  runId: string;
  message: string;
  /** The lab it was played in (its history tells what the schedule's steps did). */
  lab: LabRuns;
  /** It was one of the lesson's targeted schedules (its title, as shown): already as small as the lesson wrote it. */
  targeted: string | null;
}

export async function explore(
  target: ExploreTarget,
  runs: LabRuns,
  spares: readonly LabRuns[],
  options: ExploreOptions,
  onProgress: (progress: ExploreProgress) => void = () => undefined,
): Promise<ExploreResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const budgetMs = options.seconds * 1000;
  const deadline = started + budgetMs;
  // Only the faults this lab can have: no replication faults on independent masters.
  const space = { ...target.space, faults: kindsFor(target.space, target.topology) };
  const checked = describeSpace(space);
  const checkedWords = describeSpaceWords(space);
  let schedules = 0;
  let shrinkRuns = 0;
  let faults: number | null = null;
  const report = (phase: ExploreProgress['phase']) => onProgress({ phase, schedules, shrinkRuns, faults, elapsedMs: now() - started, budgetMs });
  const lanes = new LabLanes([runs, ...spares], 'Explore');

  // The budget holds for the random search: whatever random schedule plays when it is spent is stopped (a run may
  // take seconds; starting one just before the end must not stretch the search past it). The lesson's own schedules
  // aimed at its bugs are not cut: each is played to its end, bounded by the run's own limits. On a busy machine a
  // run's first line can come seconds after its start (a sandbox worker booting beside other labs), and a budget
  // that stopped the lesson's own break half-way said "found nothing" of code that has the lesson's bug.
  // Only the one replay that puts the answer on the learner's timeline may follow, said as such.
  let overtime = false;
  /** The labs playing one of the lesson's targeted schedules now: the budget's end leaves them playing. */
  const playingAimed = new Set<LabRuns>();
  const hardStop = setTimeout(() => {
    overtime = true;
    for (const lab of lanes.labs) if (!playingAimed.has(lab)) lanes.stop(lab);
    if (playingAimed.size > 0) report('aimed');
  }, Math.max(0, deadline - now()));
  hardStop.unref?.();

  /** Plays one schedule in a lab; null when another lab found a violation first, or the time is up. */
  const play = async (scenario: Scenario, lab: LabRuns): Promise<{ ended: RunEnded; runId: string } | null> => {
    const played = await lanes.play(lab, { code: target.code, scenario, topology: target.topology, fresh: true, checker: target.checker });
    if (played === null) return null;
    if (played.ended.outcome.status === 'syntax-error') throw new LabOperationError('invalid-input', refusal('run.doesNotCompile', { error: played.ended.outcome.error ?? 'syntax error' }));
    return { ended: played.ended, runId: played.info.runId };
  };

  // Search: each lab takes the next seed until one breaks safety or the time is up.
  let found: Found | null = null;
  let nextSeed = options.seed;
  report('searching');
  // A worker ready for each lab's next schedule (booting one per run slows a busy machine's search).
  const coolDown = runs.keepWorkersWarm(spares.length);
  // The lesson's targeted schedules first, in order, then random ones.
  const targetedQueue = [...(target.targeted ?? [])];
  let targetedPlayed = 0;
  // Every targeted schedule is played, whatever the time; random ones only while the budget lasts.
  const searching = () => targetedQueue.length > 0 || (now() < deadline && !overtime);
  await lanes.each(async (lab) => {
    while (found === null && searching()) {
      const aimed = targetedQueue.shift();
      const scenario = aimed?.scenario ?? generateSchedule(target.space, target.topology, nextSeed++ >>> 0);
      if (aimed) playingAimed.add(lab);
      const played = await play(scenario, lab).finally(() => playingAimed.delete(lab));
      if (played === null) return;
      if (aimed) targetedPlayed++;
      else schedules++;
      const message = safetyBroken(played.ended.verdict);
      report('searching');
      if (message !== null && found === null) {
        found = { scenario, ended: played.ended, runId: played.runId, message, lab, targeted: aimed?.title ?? null };
        lanes.stopOthers(lab);
      }
    }
  }).finally(coolDown);
  const seconds = () => Math.round((now() - started) / 100) / 10;
  const first = found as Found | null;
  const searched = { targeted: targetedPlayed, maxFaults: space.maxFaults };
  if (first === null) {
    clearTimeout(hardStop);
    return { found: false, schedules, seconds: seconds(), seed: options.seed, checked, checkedWords, ...searched };
  }

  // Shrink in the learner's lab, one candidate at a time, while a candidate still breaks safety.
  lanes.reopenOwn();
  const before = faultCount(first.scenario);
  faults = before;
  // Shrinking shares the budget: it ends when the budget does (the hard stop ends a candidate still playing).
  const shrinkDeadline = deadline;
  let smallest: Found = first;
  // A targeted schedule is the lesson's own, already aimed at one moment: it is shown as written.
  const shrunk = first.targeted !== null
    ? { scenario: first.scenario }
    : await shrink(
        first.scenario,
        async (candidate) => {
          if (overtime) return false;
          const played = await play(candidate, runs);
          shrinkRuns++;
          const message = played ? safetyBroken(played.ended.verdict) : null;
          if (played && message !== null) smallest = { scenario: candidate, ended: played.ended, runId: played.runId, message, lab: runs, targeted: null };
          report('shrinking');
          return message !== null;
        },
        { deadline: shrinkDeadline, maxRuns: 60 },
        (step) => {
          faults = step.faults;
          report('shrinking');
        },
      );
  clearTimeout(hardStop);
  lanes.reopenAll();

  // The smallest schedule must be the learner's lab's last run, so the verdict and the timeline show it:
  // it is when shrinking ended on it; otherwise play it again (a few times, for a timing-sensitive one).
  const shownBefore = smallest as Found;
  let shown: Found = shownBefore;
  // Asked of the lab itself: a shrink candidate stopped by the budget is the lab's last run too, though it returned nothing.
  let onTimeline = runs.isLastRun(shownBefore.runId);
  if (!onTimeline) report('replaying');
  // At least one replay; more only while the shrinking's time lasts (a loaded machine must not stretch the search).
  for (let i = 0; i < REPLAY_TRIES && !onTimeline && (i === 0 || now() < shrinkDeadline); i++) {
    const played = await play(shrunk.scenario, runs);
    const message = played ? safetyBroken(played.ended.verdict) : null;
    if (played && message !== null) {
      shown = { scenario: shrunk.scenario, ended: played.ended, runId: played.runId, message, lab: runs, targeted: shownBefore.targeted };
      onTimeline = true;
    }
  }
  // The lines tell what the run did: a step aimed at a moment that never came in it is left out (lib/schedules/fired.ts).
  const told = firedSteps(shown.scenario, shown.lab.historyOf(shown.runId));
  // The same sentence as `message` (the same verdict), as data for a page in another language.
  const said = safetyBrokenSaid(shown.ended.verdict);
  return {
    found: true,
    schedules,
    seconds: seconds(),
    seed: options.seed,
    checked,
    checkedWords,
    runId: shown.runId,
    ...searched,
    ...(shown.targeted !== null ? { targetedTitle: shown.targeted } : {}),
    lines: describeSchedule(told),
    linesWords: describeScheduleWords(told),
    message: shown.message,
    ...(said?.words ? { words: said.words } : {}),
    counterExample: shown.ended.verdict.counterExample,
    faultsBefore: before,
    faultsAfter: faultCount(told),
    shrinkRuns,
    scheduleSeed: shown.scenario.seed,
    onTimeline,
  };
}

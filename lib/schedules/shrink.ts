/**
 * Jepsen's (and QuickCheck's) shrinker: from a schedule that breaks a lock,
 * find a smaller one that still breaks it, so a learner reads two faults
 * instead of eight. Greedy: try the candidates in order (candidates.ts); the
 * first that still fails becomes the schedule; repeat until none fails or the
 * budget is spent. What "fails" means is the caller's (a real run and its
 * checker's verdict on the server, a predicate in the tests).
 */
import type { Scenario } from '../scenario';
import { shrinkCandidates } from './candidates';
import { faultCount } from './groups';

export { faultCount } from './groups';
export { shrinkCandidates } from './candidates';

export interface ShrinkBudget {
  /** Date.now() ms: no candidate run starts after it (a run under way is not cut short). */
  deadline: number;
  /** At most this many calls of stillFails. */
  maxRuns: number;
}

export interface ShrinkProgress {
  runs: number;
  faults: number;
  scenario: Scenario;
}

export interface ShrinkResult {
  scenario: Scenario;
  runs: number;
  /** faultCount before and after. */
  before: number;
  after: number;
}

export async function shrink(
  failing: Scenario,
  stillFails: (candidate: Scenario) => Promise<boolean>,
  budget: ShrinkBudget,
  onStep?: (progress: ShrinkProgress) => void,
): Promise<ShrinkResult> {
  let current = failing;
  let runs = 0;
  // A candidate that passed once is not run again when a later schedule offers it anew (removing the last
  // fault, a 1 ms pause): runs are the expensive part, seconds each on a real lab.
  const passed = new Set<string>();
  const spent = () => runs >= budget.maxRuns || Date.now() >= budget.deadline;
  let improved = true;
  while (improved && !spent()) {
    improved = false;
    for (const candidate of shrinkCandidates(current)) {
      const key = JSON.stringify(candidate.steps) + `|${candidate.clients}`;
      if (passed.has(key)) continue;
      if (spent()) break;
      runs++;
      if (await stillFails(candidate)) {
        current = candidate;
        improved = true;
        onStep?.({ runs, faults: faultCount(current), scenario: current });
        break;
      }
      passed.add(key);
    }
  }
  return { scenario: current, runs, before: faultCount(failing), after: faultCount(current) };
}

/**
 * Plays a scenario against a lab: each step fires at its scheduled time (from
 * `schedule`, so a seed replays the same run) — counted from the program's
 * start, or from the run's event the step waits for — is written to the history as
 * a scenario event, then carried out by the catalogue's operation, exactly
 * as the same fault from a button (client faults act on the running program).
 */
import { describeStep, describeTiming, describeTrigger, matchesTrigger, schedule, type Scenario, type ScenarioStep, type Trigger } from '@/lib/scenario';
import { needsProgram } from '@/lib/faults/catalogue';
import { PROGRAM_FAULT_OPS, type ProgramFault } from '@/lib/faults/client-words';
import type { ArmedFault } from '../sandbox/worker/armed-faults';
import type { FaultInput } from '@/lib/faults/inputs';
import type { Lab } from '../lab/lab';
import type { RunningClients } from '../nemesis/client-faults';
import { applyFault } from '../nemesis/operations';

export interface ScenarioHandle {
  /** Resolves when every step has been carried out (or has failed, which the history records). */
  done: Promise<StepOutcome[]>;
  /**
   * Settles every step not yet carried out. `runEnded`: the program finished, so a step still waiting for its
   * moment never had it — the run's console says which, so a learner is not left wondering why a pause never came.
   */
  cancel(options?: { runEnded?: boolean }): void;
}

export interface StepOutcome {
  at: number;
  step: ScenarioStep;
  ok: boolean;
  error?: string;
}

/** Carries out a step through the catalogue's operations, as a button would (client faults need the running program). */
function perform(lab: Lab, step: ScenarioStep, clients: RunningClients | null): Promise<unknown> {
  const { at: _at, when: _when, action, ...input } = step;
  if (needsProgram(action) && !clients) {
    return Promise.reject(new Error(`"${describeStep(step)}" needs a running program, and none is running`));
  }
  return applyFault(action, { lab, clients }, input as FaultInput<typeof action>);
}

/** A step the sandbox carries out itself: a fault on the program that waits for an event of the run (see worker/armed-faults.ts). */
export function isArmedInSandbox(step: ScenarioStep): boolean {
  return step.when !== undefined && (PROGRAM_FAULT_OPS as readonly string[]).includes(step.action);
}

/** Such a step as the sandbox takes it: `at` from the schedule (jitter included), and its line in words. */
export function armedFault(step: ScenarioStep, at: number): ArmedFault {
  const { at: _at, when, ...fault } = step;
  if (!when || !isArmedInSandbox(step)) throw new Error(`"${describeStep(step)}" is not a step the sandbox carries out`);
  return { when, at, fault: fault as ProgramFault, detail: `${describeStep(step)} (${describeTiming(when, at)})` };
}

export function runScenario(
  lab: Lab,
  scenario: Scenario,
  /** `origin`: the lab time the steps' `at` counts from (default: now), e.g. when the program's first client started. */
  /** `delegated`: steps the sandbox carries out itself (isArmedInSandbox); counted, not played here. */
  options: { runId?: string; clients?: RunningClients; origin?: number; delegated?: ReadonlySet<ScenarioStep> } = {},
): ScenarioHandle {
  const { runId } = options;
  const clients = options.clients ?? null;
  const plan = schedule(scenario);
  const origin = options.origin ?? lab.now();
  /** Pending steps: their timer, and how to settle them if the scenario is cancelled first. */
  const pending = new Map<NodeJS.Timeout, () => void>();
  /** Triggered steps still waiting for their event: how many matches they have seen, and how to arm or settle them. */
  const waiting = new Set<{ step: ScenarioStep; trigger: Trigger; seen: number; armAt(due: number): void; settle(): void }>();
  let cancelled = false;
  let stopWatching = (): void => undefined;
  lab.history.append({
    type: 'scenario',
    step: 'start',
    detail: `${scenario.title} (seed ${scenario.seed}, ${plan.length} step${plan.length === 1 ? '' : 's'})`,
    ...(runId ? { runId } : {}),
  });
  const delegated = options.delegated;
  const outcomes = plan.filter(({ step }) => !delegated?.has(step)).map(
    ({ at, step }) =>
      new Promise<StepOutcome>((resolve) => {
        const fire = () => {
          if (cancelled || lab.closed) return resolve({ at, step, ok: false, error: 'cancelled' });
          const detail = step.when ? `${describeStep(step)} (${describeTiming(step.when, at)})` : describeStep(step);
          lab.history.append({ type: 'scenario', step: step.action, detail, ...(runId ? { runId } : {}) });
          perform(lab, step, clients).then(
            () => resolve({ at, step, ok: true }),
            (error: unknown) => resolve({ at, step, ok: false, error: (error as Error).message }),
          );
        };
        // Measured from the scenario's origin (or the trigger's event), not from the previous step, so delays do
        // not accumulate. Node's timers count whole milliseconds on a truncated clock, so one can fire up to 1 ms
        // before the lab clock (sub-millisecond) says the step is due: re-arm for what is left until it is.
        const arm = (due: number) => {
          const timer = setTimeout(() => {
            pending.delete(timer);
            if (lab.now() < due) arm(due);
            else fire();
          }, Math.max(0, Math.ceil(due - lab.now())));
          pending.set(timer, () => resolve({ at, step, ok: false, error: 'cancelled' }));
        };
        if (!step.when) return arm(origin + at);
        const trigger = step.when;
        waiting.add({
          step,
          trigger,
          seen: 0,
          // The event's own time, not the moment this loop saw it: a busy server delays the step only by
          // how late the event reached us, never by that twice.
          armAt: (eventT) => arm(eventT + at),
          settle: () => resolve({ at, step, ok: false, error: `never fired: it waits until ${describeTrigger(trigger)}, and that did not happen` }),
        });
      }),
  );
  if (waiting.size > 0) {
    stopWatching = lab.history.subscribe((event) => {
      if (runId !== undefined && event.runId !== runId) return;
      for (const waiter of waiting) {
        if (!matchesTrigger(waiter.trigger, event) || ++waiter.seen < waiter.trigger.nth) continue;
        waiting.delete(waiter);
        waiter.armAt(event.t);
      }
      if (waiting.size === 0) stopWatching();
    });
  }
  return {
    done: Promise.all(outcomes),
    cancel: ({ runEnded = false } = {}) => {
      cancelled = true;
      stopWatching();
      for (const waiter of waiting) {
        if (runEnded && !lab.closed) {
          const text = `The scenario's step "${describeStep(waiter.step)}" never fired: it waits until ${describeTrigger(waiter.trigger)}, and that did not happen in this run.`;
          lab.history.append({ type: 'console', client: 0, level: 'warn', text, ...(runId ? { runId } : {}) });
        }
        waiter.settle();
      }
      waiting.clear();
      for (const [timer, settle] of pending) {
        clearTimeout(timer);
        settle();
      }
      pending.clear();
    },
  };
}

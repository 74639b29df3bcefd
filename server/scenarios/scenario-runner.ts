/**
 * Plays a scenario against a lab: each step fires at its scheduled time (from
 * `schedule`, so a seed replays the same run) — counted from the program's
 * start, or from the run's event the step waits for — is written to the history as
 * a scenario event, then carried out by the catalogue's operation, exactly
 * as the same fault from a button (client faults act on the running program).
 */
import { resolveStep, schedule, type Scenario, type ScenarioStep } from '@/lib/scenario';
import type { HistoryEvent } from '@/lib/history';
import { atLabTime } from '@/lib/due-timer';
import { TriggerWatch } from '@/lib/triggers';
import { english } from '@/lib/checker/said';
import { neverFiredWords, scheduledStepWords, stepWords, triggerWords } from '@/lib/scenario-words';
import { words, type Words } from '@/lib/words';
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
/** A step's line in the history: its English and its words (the timeline writes it in the page's language). */
function stepLine(step: ScenarioStep, at: number): { detail: string; detailWords: Words } {
  const said = scheduledStepWords(step, at);
  return { detail: english(said), detailWords: said };
}

function perform(lab: Lab, step: ScenarioStep, clients: RunningClients | null): Promise<unknown> {
  const { at: _at, when: _when, onAnsweringNode: _answering, action, ...input } = step;
  if (needsProgram(action) && !clients) {
    return Promise.reject(new Error(`"${english(stepWords(step))}" needs a running program, and none is running`));
  }
  return applyFault(action, { lab, clients }, input as FaultInput<typeof action>);
}

/**
 * A step the lab takes before the program starts: at 0 ms, waiting for nothing, on the lab itself (a link cut,
 * a node killed). "Client 1 cannot reach Nodes 4–5" must hold from Client 1's first command, not from whenever a
 * busy server gets round to it after Client 1 has started.
 */
export function isSetupStep({ at, step }: { at: number; step: ScenarioStep }): boolean {
  return at === 0 && step.when === undefined && !needsProgram(step.action);
}

/** The scenario's first line in the run's history: its title, its seed and how many steps it has. */
export function announceScenario(lab: Lab, scenario: Scenario, plan: readonly unknown[], runId?: string): void {
  const said = words('runNotes.scenarioStart', { title: scenario.title, seed: String(scenario.seed), steps: plan.length });
  lab.history.append({ type: 'scenario', step: 'start', detail: english(said), detailWords: said, ...(runId ? { runId } : {}) });
}

/** Plays the setup steps (isSetupStep), one after another, before the program starts; each is recorded like any step. */
export async function playSetupSteps(lab: Lab, steps: readonly { at: number; step: ScenarioStep }[], runId?: string): Promise<void> {
  for (const { at, step } of steps) {
    if (lab.closed) return;
    lab.history.append({ type: 'scenario', step: step.action, ...stepLine(step, at), ...(runId ? { runId } : {}) });
    // A refused setup step is in the history (nemesis fail) like any other; the run goes on, as it would have.
    await perform(lab, step, null).catch(() => undefined);
  }
}

/** A step the sandbox carries out itself: a fault on the program that waits for an event of the run (see worker/armed-faults.ts). */
export function isArmedInSandbox(step: ScenarioStep): boolean {
  return step.when !== undefined && (PROGRAM_FAULT_OPS as readonly string[]).includes(step.action);
}

/** Such a step as the sandbox takes it: `at` from the schedule (jitter included), and its line in words. */
export function armedFault(step: ScenarioStep, at: number): ArmedFault {
  const { at: _at, when, ...fault } = step;
  if (!when || !isArmedInSandbox(step)) throw new Error(`"${english(stepWords(step))}" is not a step the sandbox carries out`);
  return { when, at, fault: fault as ProgramFault, ...stepLine(step, at) };
}

export function runScenario(
  lab: Lab,
  scenario: Scenario,
  /** `origin`: the lab time the steps' `at` counts from (default: now), e.g. when the program's first client started. */
  /** `delegated`: steps played elsewhere (the sandbox's armed faults, the setup before the program); counted, not played here. */
  /** `announced`: the scenario's first line is already in the history (announceScenario). */
  /** `plan`: the scenario's schedule, if the caller has already drawn it (the same seed draws the same one). */
  options: { runId?: string; clients?: RunningClients; origin?: number; delegated?: ReadonlySet<ScenarioStep>; announced?: boolean; plan?: ReturnType<typeof schedule> } = {},
): ScenarioHandle {
  const { runId } = options;
  const clients = options.clients ?? null;
  const plan = options.plan ?? schedule(scenario);
  const origin = options.origin ?? lab.now();
  /** Steps armed for a time: how to stop their timer and settle them if the scenario is cancelled first. */
  const pending = new Set<{ cancel(): void; settle(): void }>();
  /** Triggered steps still waiting for their event, with how to arm and settle each. */
  const waiting = new TriggerWatch<{ step: ScenarioStep; arm(due: number, event?: HistoryEvent): void; settle(): void }>();
  let cancelled = false;
  let stopWatching = (): void => undefined;
  if (!options.announced) announceScenario(lab, scenario, plan, runId);
  const delegated = options.delegated;
  const outcomes = plan.filter(({ step }) => !delegated?.has(step)).map(
    ({ at, step }) =>
      new Promise<StepOutcome>((resolve) => {
        const fire = (event?: HistoryEvent) => {
          if (cancelled || lab.closed) return resolve({ at, step, ok: false, error: 'cancelled' });
          const acting = resolveStep(step, event);
          lab.history.append({ type: 'scenario', step: step.action, ...stepLine(acting, at), ...(runId ? { runId } : {}) });
          perform(lab, acting, clients).then(
            () => resolve({ at, step, ok: true }),
            (error: unknown) => resolve({ at, step, ok: false, error: (error as Error).message }),
          );
        };
        // Measured from the scenario's origin (or the trigger's event), not from the previous step, so delays do
        // not accumulate; never before the lab clock says the step is due.
        const arm = (due: number, event?: HistoryEvent) => {
          const timer = atLabTime(due, () => lab.now(), () => {
            pending.delete(entry);
            fire(event);
          });
          const entry = { cancel: timer.cancel, settle: () => resolve({ at, step, ok: false, error: 'cancelled' }) };
          pending.add(entry);
        };
        if (!step.when) return arm(origin + at);
        const trigger = step.when;
        waiting.add(
          {
            step,
            arm,
            settle: () => resolve({ at, step, ok: false, error: `never fired: it waits until ${english(triggerWords(trigger))}, and that did not happen` }),
          },
          trigger,
          at,
        );
      }),
  );
  if (waiting.size > 0) {
    stopWatching = lab.history.subscribe((event) => {
      if (runId !== undefined && event.runId !== runId) return;
      for (const { item, due, event: moment } of waiting.observe(event)) item.arm(due, moment);
      if (waiting.size === 0) stopWatching();
    });
  }
  return {
    done: Promise.all(outcomes),
    cancel: ({ runEnded = false } = {}) => {
      cancelled = true;
      stopWatching();
      for (const { item, when } of waiting.drain()) {
        if (runEnded && !lab.closed) {
          const words = neverFiredWords(stepWords(item.step), when);
          lab.history.append({ type: 'console', client: 0, level: 'warn', text: english(words), words, ...(runId ? { runId } : {}) });
        }
        item.settle();
      }
      for (const entry of pending) {
        entry.cancel();
        entry.settle();
      }
      pending.clear();
    },
  };
}

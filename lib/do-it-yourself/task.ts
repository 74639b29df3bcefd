/**
 * A lesson's "Do it yourself" task (issue 30): its Break-it scenario's break,
 * done by hand. The task names the break scenario and which of its steps the
 * learner does (`byHand`); the run plays the scenario without those steps (its
 * set-up stays: head starts, link cuts) and stops at the suggested breakpoint,
 * where the learner injects the faults through the instrument panel. The
 * violation it teaches is the scenario's own expected diagnosis.
 * Isomorphic: the lesson loader validates it, the page plays it.
 */
import { z } from 'zod';
import { MAX_CLIENTS, MAX_NODES } from '../cluster';
import { FAULT_OPS } from '../faults/catalogue';
import { triggerSchema, type Scenario, type ScenarioStep } from '../scenario';

/** A fault the learner is asked to inject: the catalogue's op and its target, as its button names it. */
export const handFaultSchema = z
  .object({
    action: z.enum(FAULT_OPS),
    node: z.number().int().min(1).max(MAX_NODES).optional(),
    client: z.number().int().min(1).max(MAX_CLIENTS).optional(),
  })
  .strict();
export type HandFault = z.infer<typeof handFaultSchema>;

export const doItYourselfSchema = z
  .object({
    /** The lesson's scenario that expects a violation, whose break the learner makes by hand (its program, its set-up, its diagnosis). */
    scenario: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
    /** The moment suggested to stop at ("Client 1 is granted the lock"): one of the breakpoint picker's choices. */
    breakpoint: triggerSchema,
    /** The scenario's steps the learner does instead, in order; each must match one step of the scenario. */
    byHand: z.array(handFaultSchema).min(1).max(6),
  })
  .strict();
export type DoItYourself = z.output<typeof doItYourselfSchema>;

/** A scenario step is the hand fault's when it is the same fault on the same target. */
export function stepIsHandFault(step: ScenarioStep, fault: HandFault): boolean {
  const s = step as { action: string; node?: number; client?: number };
  return s.action === fault.action && s.node === fault.node && s.client === fault.client;
}

/** The index of the step each hand fault replaces (-1: none), matched in order so a fault done twice takes two steps. */
export function handStepIndexes(scenario: Scenario, byHand: readonly HandFault[]): number[] {
  const taken = new Set<number>();
  return byHand.map((fault) => {
    const i = scenario.steps.findIndex((step, j) => !taken.has(j) && stepIsHandFault(step, fault));
    if (i !== -1) taken.add(i);
    return i;
  });
}

/** What the task's run plays: the break scenario without the steps the learner does by hand. */
export function handScenario(scenario: Scenario, byHand: readonly HandFault[]): Scenario {
  const mine = new Set(handStepIndexes(scenario, byHand));
  return { ...scenario, steps: scenario.steps.filter((_, i) => !mine.has(i)) };
}

type Goals = (typeof import('../../messages/en/workspace.json'))['doItYourself']['goal'];

/**
 * The sentence that says which break a task asks for, by the diagnosis it teaches. A diagnosis with no sentence
 * does not fail to compile (a lesson's front matter names it), so tests/unit/do-it-yourself-words.test.ts holds
 * every declared task to one.
 */
export function goalKey(diagnosis: string): `workspace.doItYourself.goal.${keyof Goals & string}` {
  const camel = diagnosis.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return `workspace.doItYourself.goal.${camel as keyof Goals & string}`;
}

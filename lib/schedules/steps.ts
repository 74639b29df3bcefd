/**
 * Steps the type checker cannot build by hand. zod 4 types a strict empty
 * object's output as Record<string, never>, so `{ action: 'failover', at }`
 * parses as a ScenarioStep yet does not type-check as one (nor does a spread
 * of any step with a new `at`); these go through the step schema instead of a
 * cast, which also checks them.
 */
import { scenarioStepSchema, type ScenarioStep, type Trigger } from '../scenario';

type LabWideAction = 'replication-hold' | 'replication-release' | 'failover';

export const labWideStep = (action: LabWideAction, timing: { at: number; when?: Trigger }): ScenarioStep =>
  scenarioStepSchema.parse({ action, ...timing });

/** The same step at another time (after the same trigger, if it has one). */
export const retimed = (step: ScenarioStep, at: number): ScenarioStep => scenarioStepSchema.parse({ ...step, at });

/**
 * The commands that act on a lab — every fault of the catalogue, Run, Stop,
 * "Check my solution" — declared once, typed by the protocol, and used by
 * both doors into a lab: a learner's socket on their own lab, and an
 * instructor's `classroom:command` on the classroom's lab. Inputs arrive
 * parsed (lib/commands.ts); nothing here validates twice.
 */
import type { ClassroomLabCommand } from '@/lib/classroom';
import { parseCommand, type CommandInput, type CommandValue } from '@/lib/commands';
import { FAULT_OPS, FAULTS, type FaultOp } from '@/lib/faults/catalogue';
import type { GradeProgress } from '@/lib/grading';
import type { Lab } from '../lab/lab';
import { applyFault } from '../nemesis/operations';
import { gradeExercise } from '../grading/grader';
import { lessonBySlug } from '../grading/lesson-registry';
import type { LabRuns } from '../runs/lab-runs';
import { NO_SPARES, type SpareLabs } from '../grading/spare-labs';
import { explore, targetedSchedules } from '../grading/explore';
import { lessonIn } from '../grading/lesson-words';
import { PLAYGROUND_SPACE } from '../grading/playground-space';
import type { ExploreProgress } from '@/lib/explore';
import type { ExperimentProgress } from '@/lib/experiment/design';
import { drawSeed } from '@/lib/random';
import { cancelExperiment, runExperiment } from '../experiment/experiment';
import type { Topology } from '@/lib/cluster';

/** What a lab command acts on. */
export interface LabCommandContext {
  lab: Lab;
  /** The lab's runs, created on first use (a fault on a lab that never ran a program needs none). */
  runs(): LabRuns;
  /** The lab's runs if it has had any (client faults reach the running program through them). */
  existingRuns(): LabRuns | null;
  /** "Check my solution": where the grader's progress goes. */
  notify(progress: GradeProgress): void;
  /** Labs the grader may use beside this one while it checks (none when the server has no room). */
  spareLabs?(topology: Topology): Promise<SpareLabs>;
  /** "Explore": where the search's progress goes. */
  notifyExplore?(progress: ExploreProgress): void;
  /** Lesson 8's experiment: where its progress goes. */
  notifyExperiment?(progress: ExperimentProgress): void;
}

export type LabCommand = ClassroomLabCommand | 'run:break' | 'run:continue' | 'exercise:check' | 'explore:run' | 'experiment:run';
type LabCommandHandler<E extends LabCommand> = (ctx: LabCommandContext, input: CommandInput<E>) => Promise<CommandValue<E>>;
type LabCommandTable = { [E in LabCommand]: LabCommandHandler<E> };

type FaultHandlers = { [K in FaultOp as (typeof FAULTS)[K]['event']]: LabCommandHandler<(typeof FAULTS)[K]['event']> };
const faultHandler =
  <K extends FaultOp>(op: K) =>
  (ctx: LabCommandContext, input: Parameters<typeof applyFault<K>>[2]) =>
    applyFault(op, { lab: ctx.lab, clients: ctx.existingRuns()?.current ?? null }, input);
// Each event's input and reply are the ones its op declares (lib/protocol.ts's FaultEvents); the map cannot say so per key.
const faultHandlers = Object.fromEntries(FAULT_OPS.map((op) => [FAULTS[op].event, faultHandler(op)])) as unknown as FaultHandlers;

export const LAB_COMMANDS: LabCommandTable = {
  ...faultHandlers,
  // What a learner (or an instructor) presses Run for ends once its verdict can no longer change.
  // A run of the learner's own ends an experiment going on in the lab (its next variant would replace the run).
  'run:start': (ctx, input) => {
    cancelExperiment(ctx.existingRuns());
    return ctx.runs().start(input, { endWhenDecided: true, yieldable: true });
  },
  'run:break': async (ctx, { when }) => ({ running: ctx.runs().setBreakpoint(when) }),
  'run:continue': async (ctx, { step }) => {
    ctx.runs().continueFromBreakpoint(step);
    return null;
  },
  'run:stop': (ctx) => {
    cancelExperiment(ctx.existingRuns());
    return ctx.runs().stop();
  },
  'exercise:check': async (ctx, { slug, code, locale }) => {
    const lesson = lessonBySlug(slug);
    const spares = (await ctx.spareLabs?.(lesson.topology)) ?? NO_SPARES;
    try {
      return await gradeExercise(lesson, code, ctx.runs(), ctx.notify, spares.runs, undefined, undefined, locale);
    } finally {
      await spares.release();
    }
  },
  'explore:run': async (ctx, { slug, code, seconds, seed, locale }) => {
    const lesson = slug ? lessonBySlug(slug) : null;
    const topology = lesson?.topology ?? ctx.lab.topology;
    const spares = (await ctx.spareLabs?.(topology)) ?? NO_SPARES;
    try {
      // The lesson's own schedules aimed at its bugs go first: its "Break it" scenarios, then its adversaries that are
      // schedules (a probe replaces the learner's driver, so it is the check's, not a search of their program). They
      // play as the English lesson wrote them; a learner reads their titles in the page's language.
      const targeted = lesson ? targetedSchedules(lesson, await lessonIn(lesson, locale)) : [];
      const target = { code, topology, checker: lesson?.checker ?? {}, space: lesson?.explore ?? PLAYGROUND_SPACE, targeted };
      return await explore(target, ctx.runs(), spares.runs, { seconds, seed: seed ?? randomSeed() }, (p) => ctx.notifyExplore?.(p));
    } finally {
      await spares.release();
    }
  },
  'experiment:run': (ctx, { seed }) => runExperiment(ctx.runs(), { seed: seed ?? drawSeed() }, (p) => ctx.notifyExperiment?.(p)),
};

/** A search asked without a seed starts from a fresh one (it is in the answer, so it can be searched again). */
const randomSeed = (): number => Math.floor(Math.random() * 2 ** 32);

export const LAB_COMMAND_NAMES = Object.keys(LAB_COMMANDS) as LabCommand[];

/** Runs a parsed lab command. */
export function runLabCommand<E extends LabCommand>(event: E, ctx: LabCommandContext, input: CommandInput<E>): Promise<CommandValue<E>> {
  return (LAB_COMMANDS[event] as LabCommandHandler<E>)(ctx, input);
}

/** A classroom's lab command: its input travelled inside `classroom:command` (possibly from another server), so it is parsed here. */
export function runClassroomLabCommand(command: ClassroomLabCommand, ctx: LabCommandContext, raw: unknown): Promise<unknown> {
  return runLabCommand(command, ctx, parseCommand(command, raw));
}

/**
 * The lesson format: what a folder in `lessons/` must contain, as zod
 * schemas. Isomorphic (no Node imports) so pages, the loader and tests share
 * one definition; the loader (`load.ts`) reads the files and names the file
 * and field of any mistake.
 */
import { z } from 'zod';
import { MAX_CLIENTS, MAX_NODES, PERSISTENCE_MODES, TOPOLOGY_KINDS } from '../cluster';
import { DIAGNOSIS_KINDS } from '../checker/diagnosis-catalogue';
import { CHECK_NAMES } from '../checker/types';
import { checkerSettingsSchema } from '../run';
import { scenarioSchema } from '../scenario';
import { faultSpaceSchema } from '../schedules/space';
import { SAY_KEY, templateError } from './probe-says';
import { doItYourselfSchema } from '../do-it-yourself/task';

/** Every diagnosis the checker can name (lib/checker/diagnosis-catalogue.ts): front matter is validated against it. */
export { DIAGNOSIS_KINDS } from '../checker/diagnosis-catalogue';

const id = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'use lower-case letters, digits and dashes');

/**
 * Which program a scenario runs: the lesson's `starter` or `solution`, or
 * another file of the folder (e.g. `programs/nx-without-ttl.ts`) for a
 * lesson that shows a middle step.
 */
const programRef = z.union([
  z.literal('starter'),
  z.literal('solution'),
  z.string().regex(/^programs\/[a-z0-9][a-z0-9-]*\.ts$/, 'use "starter", "solution" or "programs/<name>.ts"'),
]);
export type ProgramRef = z.infer<typeof programRef>;

/** What the lead's integration test (and `npm run fidelity`) asserts for one scenario. */
export const expectationSchema = z
  .object({
    verdict: z.enum(['held', 'violated', 'unknown']),
    /** The check whose verdict proves the point (e.g. `liveness` for a lock that never frees). */
    check: z.enum(CHECK_NAMES).optional(),
    /** The diagnosis the verdict must name as its root cause (the one its headline gives). */
    diagnosis: z.enum(DIAGNOSIS_KINDS).optional(),
    /** A fencing lesson's fix: at least one stale write must have been rejected. */
    savedByFencing: z.boolean().optional(),
  })
  .strict();
export type Expectation = z.infer<typeof expectationSchema>;

export const SCENARIO_ROLES = ['break', 'fix', 'explore'] as const;

export const lessonScenarioSchema = z
  .object({
    /** The file `scenarios/<id>.json`, whose own `id` must match. */
    id,
    /** "Break it" must be violated, "Fix it" must hold; "explore" shows something without a pass/fail point. */
    role: z.enum(SCENARIO_ROLES),
    program: programRef,
    expect: expectationSchema,
    /** Checker settings for this scenario, over the lesson's. */
    checker: checkerSettingsSchema.optional(),
    /** One line for the scenario picker's tooltip. */
    note: z.string().max(300).optional(),
  })
  .strict();
export type LessonScenarioRef = z.infer<typeof lessonScenarioSchema>;

export const exerciseSchema = z
  .object({
    /** The function the learner completes in `starter.ts` (it must appear there and in `solution.ts`). */
    function: z.string().regex(/^[A-Za-z_$][\w$]*$/, 'a JavaScript function name'),
    description: z.string().min(1).max(1_000),
    /** The scenarios "Check my solution" runs the learner's code under (ids from `scenarios`). */
    scenarios: z.array(id).min(1).max(8),
    /** Each scenario runs once per seed (the seed replaces the scenario's own). */
    seeds: z.array(z.number().int().min(0).max(2 ** 32 - 1)).min(1).max(10),
    /** Liveness: the bound the grader passes to the checker, and how many executions of the job must complete per run. */
    liveness: z
      .object({
        boundMs: z.number().int().min(100).max(120_000),
        minCompletedExecutions: z.number().int().min(0).max(1_000).default(1),
      })
      .strict(),
    /**
     * Random schedules from the lesson's `explore` space that "Check my solution" plays after the adversaries
     * and the scenarios (seeds fixed here, so a check is the same every time); only safety is judged in them.
     */
    randomSchedules: z.array(z.number().int().min(0).max(2 ** 32 - 1)).max(10).default([1, 2, 3]),
    /** A program the grader must fail (with a counter-example), to prove the exercise can fail. */
    knownWrong: programRef.default('starter'),
    /**
     * Adversaries (`adversaries/<id>.json`) that go after this lesson's bug classes: probes that call the
     * learner's function in the situations that break a wrong one, and scenarios aimed at the moments that
     * matter. "Check my solution" runs them before the scenarios above; hidden ones never reach the page.
     */
    adversaries: z.array(id).min(1).max(16),
  })
  .strict();
export type Exercise = z.infer<typeof exerciseSchema>;

/** A sentence as an ICU message (`{name}`, `{n, plural, …}`, `{kind, select, …}`): one that does not parse fails the load. */
export const icuTemplate = z
  .string()
  .min(1)
  .max(600)
  .superRefine((template, ctx) => {
    const error = templateError(template);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  });

/**
 * An adversary of an exercise. With `probe`, the program is the learner's declarations (their functions and
 * set-up, without their driver) followed by the probe, which calls the function where a wrong one fails and
 * throws with a sentence the learner reads; without it, the learner's whole program runs under the scenario.
 */
export const adversarySchema = z
  .object({
    /** The file `adversaries/<id>.json`, whose own `id` must match. */
    id,
    /** What it does, in the learner's words; shown when it fails (and on the page when not hidden). */
    title: z.string().min(1).max(160),
    /** Hidden adversaries are never listed on the page: passing means the lock is right, not that it fits what was shown. */
    hidden: z.boolean(),
    /** `adversaries/<name>.ts`: the probe's driver. */
    probe: z.string().regex(/^adversaries\/[a-z0-9][a-z0-9-]*\.ts$/, 'use "adversaries/<name>.ts"').optional(),
    /** A call the probe marks (`__probe.call(name, …)`): when it fails, the commands that call sent are quoted. */
    trace: z.string().regex(/^[A-Za-z_$][\w$]*$/).optional(),
    /**
     * The command trace as a requirement: in every marked call of `trace`, `command` must come after `after`
     * ("a WAIT after the SET"); `why` is the sentence a learner reads when it does not.
     */
    follows: z.object({ after: z.string().regex(/^[A-Z]+$/), command: z.string().regex(/^[A-Z]+$/), why: z.string().min(1).max(400) }).strict().optional(),
    /**
     * A probe's sentences: `__probe.expect(ok, '<key>', values)` names one of these English ICU templates
     * (lib/lessons/probe-says.ts), and a translation's `texts.json` writes the same keys in its language.
     */
    says: z.record(z.string().regex(SAY_KEY, 'a key is a camelCase name'), icuTemplate).default({}),
    scenario: scenarioSchema,
    /** Wrong answers of the corpus (`wrong/<name>.ts`) this adversary is aimed at: `npm run fidelity` holds it to rejecting each. */
    breaks: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/)).max(20).default([]),
    /** What the checker must say besides: a probe is judged by its own assertions unless this is given. */
    expect: expectationSchema.optional(),
    checker: checkerSettingsSchema.optional(),
  })
  .strict();
export type AdversaryFile = z.infer<typeof adversarySchema>;
/** At least this many wrong answers (`wrong/*.ts`) live with each lesson, and the grader must reject every one. */
export const MIN_WRONG_ANSWERS = 3;

export const topologySchema = z
  .object({
    kind: z.enum(TOPOLOGY_KINDS),
    nodes: z.number().int().min(1).max(MAX_NODES),
    persistence: z.enum(PERSISTENCE_MODES).default('none'),
  })
  .strict()
  .refine((t) => t.kind !== 'replicated' || t.nodes === 2, { message: 'a replicated topology has exactly 2 nodes (master + replica)', path: ['nodes'] });

export const frontMatterSchema = z
  .object({
    title: z.string().min(1).max(120),
    slug: id,
    order: z.number().int().min(1).max(99),
    summary: z.string().min(1).max(400),
    /** Minutes a learner needs, for the index. */
    minutes: z.number().int().min(1).max(240).default(20),
    topology: topologySchema,
    defaultClients: z.number().int().min(1).max(MAX_CLIENTS),
    /** Settings sent with every run of this lesson (a scenario's own `checker` goes over them). */
    checker: checkerSettingsSchema.default({}),
    scenarios: z.array(lessonScenarioSchema).min(2).max(12),
    exercise: exerciseSchema,
    /**
     * What "Explore" may draw random schedules from: the faults this lesson's lock is meant to survive, with
     * bounds its reference solution keeps (a pause longer than a TTL breaks any lease, which is lesson 6's point,
     * not a finding about lesson 1's lock). Tests play the solution under many of them.
     */
    explore: faultSpaceSchema,
    /** Offers the Arabic production write-up's experiment (lib/experiment): its table, measured in the learner's lab. */
    experiment: z.boolean().default(false),
    /** "Do it yourself": a break scenario's break done by hand at a breakpoint (lib/do-it-yourself/task.ts). */
    doItYourself: doItYourselfSchema.optional(),
  })
  .strict()
  .superRefine((fm, ctx) => {
    const diy = fm.doItYourself;
    if (diy) {
      const ref = fm.scenarios.find((s) => s.id === diy.scenario);
      if (!ref || ref.expect.verdict !== 'violated' || !ref.expect.diagnosis)
        ctx.addIssue({ code: 'custom', path: ['doItYourself', 'scenario'], message: `"${diy.scenario}" is not a scenario of this lesson that expects a violation with a diagnosis` });
    }
    if (fm.experiment && (fm.topology.kind !== 'masters' || fm.topology.nodes !== 5))
      ctx.addIssue({ code: 'custom', path: ['experiment'], message: "the experiment runs on five independent masters: the lesson's topology must be { kind: masters, nodes: 5 }" });
    const ids = fm.scenarios.map((s) => s.id);
    ids.forEach((sid, i) => {
      if (ids.indexOf(sid) !== i) ctx.addIssue({ code: 'custom', path: ['scenarios', i, 'id'], message: `"${sid}" is listed twice` });
    });
    if (!fm.scenarios.some((s) => s.role === 'break')) ctx.addIssue({ code: 'custom', path: ['scenarios'], message: 'a lesson needs a "break" scenario' });
    if (!fm.scenarios.some((s) => s.role === 'fix')) ctx.addIssue({ code: 'custom', path: ['scenarios'], message: 'a lesson needs a "fix" scenario' });
    fm.scenarios.forEach((s, i) => {
      if (s.role === 'break' && s.expect.verdict !== 'violated') ctx.addIssue({ code: 'custom', path: ['scenarios', i, 'expect', 'verdict'], message: 'a "break" scenario expects "violated"' });
      if (s.role === 'fix' && s.expect.verdict !== 'held') ctx.addIssue({ code: 'custom', path: ['scenarios', i, 'expect', 'verdict'], message: 'a "fix" scenario expects "held"' });
    });
    fm.exercise.adversaries.forEach((aid, i) => {
      if (fm.exercise.adversaries.indexOf(aid) !== i) ctx.addIssue({ code: 'custom', path: ['exercise', 'adversaries', i], message: `"${aid}" is listed twice` });
    });
    fm.exercise.scenarios.forEach((sid, i) => {
      if (!ids.includes(sid)) ctx.addIssue({ code: 'custom', path: ['exercise', 'scenarios', i], message: `"${sid}" is not one of this lesson's scenarios` });
    });
  });
export type FrontMatter = z.output<typeof frontMatterSchema>;

export const quizChoiceSchema = z
  .object({
    text: z.string().min(1).max(400),
    correct: z.boolean().default(false),
    /** Shown after answering: why this choice is right or wrong. */
    why: z.string().min(1).max(800),
  })
  .strict();

export const quizQuestionSchema = z
  .object({
    id,
    prompt: z.string().min(1).max(600),
    choices: z.array(quizChoiceSchema).min(2).max(6),
  })
  .strict()
  .superRefine((q, ctx) => {
    const right = q.choices.filter((c) => c.correct).length;
    if (right !== 1) ctx.addIssue({ code: 'custom', path: ['choices'], message: `exactly one choice must be correct (found ${right})` });
  });

export const quizSchema = z
  .object({ questions: z.array(quizQuestionSchema).min(3).max(5) })
  .strict()
  .superRefine((quiz, ctx) => {
    const ids = quiz.questions.map((q) => q.id);
    ids.forEach((qid, i) => {
      if (ids.indexOf(qid) !== i) ctx.addIssue({ code: 'custom', path: ['questions', i, 'id'], message: `"${qid}" is used twice` });
    });
  });
export type Quiz = z.output<typeof quizSchema>;
export type QuizQuestion = Quiz['questions'][number];

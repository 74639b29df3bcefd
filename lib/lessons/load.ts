/**
 * Reads a lesson folder and validates every file of it (Node only: used at
 * build time by the pages and by tests). A mistake throws a
 * `LessonFormatError` that names the file and the field, so a malformed
 * lesson fails `next build` with a message a lesson author can act on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { needsReplica } from '../faults/catalogue';
import { handStepIndexes } from '../do-it-yourself/task';
import { scenarioSchema, type Scenario, type ScenarioStep } from '../scenario';
import { probeSaysErrors } from './probe-keys';
import { composeWrongAnswer, WrongAnswerError } from './wrong-answers';
import { adversarySchema, frontMatterSchema, MIN_WRONG_ANSWERS, quizSchema, type AdversaryFile, type FrontMatter, type LessonScenarioRef, type ProgramRef, type Quiz } from './schema';

/** The components a lesson's MDX may use (rendered by `components/lesson/mdx-components.tsx`). */
export const MDX_COMPONENTS = ['Diagram', 'Callout'] as const;

export class LessonFormatError extends Error {
  constructor(
    /** Path relative to the repository, e.g. `lessons/01-naive-lock/quiz.json`. */
    readonly file: string,
    /** Dotted field path inside the file, or '' for the file as a whole. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${file}${field ? ` → ${field}` : ''}: ${problem}`);
    this.name = 'LessonFormatError';
  }
}

export interface LessonScenario extends LessonScenarioRef {
  scenario: Scenario;
  /** The program's source, resolved from `program`. */
  code: string;
}

/** An adversary with its probe's source (server-side only: hidden ones must never reach a page). */
export interface Adversary extends AdversaryFile {
  /** The probe's driver, when it has one. */
  probeCode: string | null;
}

/** A wrong answer of the lesson's corpus (`wrong/<name>.ts`): the grader must reject it. */
export interface WrongAnswer {
  name: string;
  /** Its first line, "// Wrong: …", without the marker. */
  mistake: string;
  /** The whole program: the solution with the file's declarations in place of its own (`wrong-answers.ts`). */
  code: string;
}

export interface Lesson extends FrontMatter {
  /** Folder name, e.g. `01-naive-lock`. */
  folder: string;
  /** The MDX body (front matter removed). */
  body: string;
  starter: string;
  solution: string;
  /** Extra programs (`programs/*.ts`), by reference. */
  programs: Record<string, string>;
  lessonScenarios: LessonScenario[];
  quiz: Quiz;
  /** Hints, in the order a learner should see them (Markdown). */
  hints: string[];
  /** Diagram files the text uses, as public URLs (`/lessons/<slug>/<file>.svg`). */
  diagrams: string[];
  /** The exercise's adversaries, in the front matter's order. */
  adversaries: Adversary[];
  /** Plausible wrong answers the grader must reject. */
  wrong: WrongAnswer[];
}

/** The summary the course index needs. */
export type LessonSummary = Pick<Lesson, 'slug' | 'title' | 'order' | 'summary' | 'minutes' | 'topology' | 'folder'>;

const FOLDER = /^(\d{2})-([a-z0-9][a-z0-9-]*)$/;

export function defaultLessonsRoot(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), 'lessons');
}

/** Every lesson under `root`, sorted by order; orders and slugs must be unique. */
export function loadAllLessons(root = defaultLessonsRoot()): Lesson[] {
  const folders = fs
    .readdirSync(/*turbopackIgnore: true*/ root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && FOLDER.test(d.name))
    .map((d) => d.name)
    .sort();
  const lessons = folders.map((folder) => loadLesson(path.join(/*turbopackIgnore: true*/ root, folder)));
  const seen = new Map<string, string>();
  for (const lesson of lessons) {
    for (const key of [`order ${lesson.order}`, `slug ${lesson.slug}`]) {
      const other = seen.get(key);
      if (other) throw new LessonFormatError(relative(path.join(root, lesson.folder, 'lesson.mdx')), key.split(' ')[0] ?? '', `${key} is also used by ${other}`);
      seen.set(key, lesson.folder);
    }
  }
  return lessons.sort((a, b) => a.order - b.order);
}

/** The source of a program reference (`starter`, `solution` or `programs/<name>.ts`). */
export function programSource(lesson: Lesson, ref: ProgramRef): string {
  if (ref === 'starter') return lesson.starter;
  if (ref === 'solution') return lesson.solution;
  const source = lesson.programs[ref];
  if (source === undefined) throw new LessonFormatError(`lessons/${lesson.folder}`, ref, 'program not loaded');
  return source;
}

export function summarize(lesson: Lesson): LessonSummary {
  const { slug, title, order, summary, minutes, topology, folder } = lesson;
  return { slug, title, order, summary, minutes, topology, folder };
}

export function loadLesson(dir: string): Lesson {
  const folder = path.basename(dir);
  const match = FOLDER.exec(folder);
  if (!match) throw new LessonFormatError(relative(dir), '', 'a lesson folder is named "NN-slug", e.g. "01-naive-lock"');
  const file = (name: string) => path.join(/*turbopackIgnore: true*/ dir, name);

  const mdx = readText(file('lesson.mdx'));
  const { data, body } = splitFrontMatter(mdx, file('lesson.mdx'));
  const fm = validate(frontMatterSchema, data, file('lesson.mdx'), 'front matter');
  if (fm.slug !== match[2]) throw new LessonFormatError(relative(file('lesson.mdx')), 'slug', `"${fm.slug}" does not match the folder name "${folder}"`);
  if (fm.order !== Number(match[1])) throw new LessonFormatError(relative(file('lesson.mdx')), 'order', `${fm.order} does not match the folder number ${match[1]}`);

  const starter = readText(file('starter.ts'));
  const solution = readText(file('solution.ts'));
  for (const [name, source] of [['starter.ts', starter], ['solution.ts', solution]] as const) {
    if (!definesFunction(source, fm.exercise.function)) {
      throw new LessonFormatError(relative(file(name)), 'exercise.function', `does not define the exercise's function "${fm.exercise.function}"`);
    }
  }

  const programs: Record<string, string> = {};
  const programOf = (ref: ProgramRef, field: string): string => {
    if (ref === 'starter') return starter;
    if (ref === 'solution') return solution;
    if (!(ref in programs)) {
      if (!fs.existsSync(file(ref))) throw new LessonFormatError(relative(file('lesson.mdx')), field, `the program "${ref}" does not exist in ${relative(dir)}`);
      programs[ref] = readText(file(ref));
    }
    return programs[ref] as string;
  };

  const lessonScenarios = fm.scenarios.map((ref, i): LessonScenario => {
    const scenarioFile = file(`scenarios/${ref.id}.json`);
    const scenario = validate(scenarioSchema, readJson(scenarioFile), scenarioFile, '');
    if (scenario.id !== ref.id) throw new LessonFormatError(relative(scenarioFile), 'id', `"${scenario.id}" does not match the file name "${ref.id}"`);
    checkStepsFit(scenario, fm, scenarioFile);
    return { ...ref, scenario, code: programOf(ref.program, `scenarios.${i}.program`) };
  });
  checkDoItYourself(fm, lessonScenarios, file('lesson.mdx'));
  programOf(fm.exercise.knownWrong, 'exercise.knownWrong');
  const adversaries = fm.exercise.adversaries.map((aid) => loadAdversary(dir, aid, fm));
  const wrong = loadWrongAnswers(dir, solution);
  for (const adversary of adversaries) {
    for (const name of adversary.breaks) {
      if (!wrong.some((w) => w.name === name)) throw new LessonFormatError(relative(path.join(dir, 'adversaries', `${adversary.id}.json`)), 'breaks', `"${name}" is not a wrong answer of this lesson (wrong/${name}.ts)`);
    }
  }

  const quiz = validate(quizSchema, readJson(file('quiz.json')), file('quiz.json'), '');
  const hints = splitHints(readText(file('hints.md')), file('hints.md'));
  const diagrams = checkBody(body, fm.slug, file('lesson.mdx'));

  return { ...fm, folder, body, starter, solution, programs, lessonScenarios, quiz, hints, diagrams, adversaries, wrong };
}

function loadAdversary(dir: string, aid: string, fm: FrontMatter): Adversary {
  const p = path.join(/*turbopackIgnore: true*/ dir, 'adversaries', `${aid}.json`);
  const file: AdversaryFile = validate(adversarySchema, readJson(p), p, '');
  if (file.id !== aid) throw new LessonFormatError(relative(p), 'id', `"${file.id}" does not match the file name "${aid}"`);
  checkStepsFit(file.scenario, fm, p);
  const probeCode = file.probe ? readText(path.join(/*turbopackIgnore: true*/ dir, file.probe)) : null;
  if (file.trace && !file.probe) throw new LessonFormatError(relative(p), 'trace', 'only a probe marks its calls');
  if (probeCode !== null) {
    const wrongSays = probeSaysErrors(probeCode, file.says);
    if (wrongSays.length > 0) throw new LessonFormatError(relative(p), 'says', `${file.probe}: ${wrongSays.join('; ')}`);
  } else if (Object.keys(file.says).length > 0) throw new LessonFormatError(relative(p), 'says', 'only a probe says sentences');
  if (file.follows && !file.trace) throw new LessonFormatError(relative(p), 'follows', 'a command order is checked in the marked call named by `trace`');
  return { ...file, probeCode };
}

function loadWrongAnswers(dir: string, solution: string): WrongAnswer[] {
  const folder = path.join(/*turbopackIgnore: true*/ dir, 'wrong');
  const names = fs.existsSync(folder) ? fs.readdirSync(/*turbopackIgnore: true*/ folder).filter((f) => f.endsWith('.ts')).sort() : [];
  if (names.length < MIN_WRONG_ANSWERS) {
    throw new LessonFormatError(relative(folder), '', `a lesson needs at least ${MIN_WRONG_ANSWERS} wrong answers (wrong/<name>.ts) for the grader to reject; found ${names.length}`);
  }
  return names.map((name) => {
    const p = path.join(folder, name);
    const text = readText(p);
    const mistake = /^\/\/ Wrong: (.+)$/m.exec(text.split('\n', 1)[0] ?? '')?.[1];
    if (!mistake) throw new LessonFormatError(relative(p), '', 'the first line must say the mistake: "// Wrong: …"');
    let code: string;
    try {
      code = composeWrongAnswer(solution, text);
    } catch (error) {
      if (error instanceof WrongAnswerError) throw new LessonFormatError(relative(p), '', error.message);
      throw error;
    }
    return { name: name.replace(/\.ts$/, ''), mistake, code };
  });
}

// ---- helpers ---------------------------------------------------------------

function relative(p: string): string {
  return path.relative(process.cwd(), p) || p;
}

function readText(p: string): string {
  let text: string;
  try {
    text = fs.readFileSync(p, 'utf8');
  } catch {
    throw new LessonFormatError(relative(p), '', 'file is missing');
  }
  if (text.trim() === '') throw new LessonFormatError(relative(p), '', 'file is empty');
  return text;
}

function readJson(p: string): unknown {
  const text = readText(p);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LessonFormatError(relative(p), '', `not valid JSON: ${(error as Error).message}`);
  }
}

function validate<S extends z.ZodType>(schema: S, data: unknown, p: string, what: string): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue ? issue.path.map(String).join('.') : '';
  const others = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem${parsed.error.issues.length > 2 ? 's' : ''})` : '';
  throw new LessonFormatError(relative(p), field || what, `${issue?.message ?? 'invalid'}${others}`);
}

/** `---\n<yaml>\n---\n<body>`; the YAML must be a mapping. */
export function splitFrontMatter(text: string, p: string): { data: unknown; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!m) throw new LessonFormatError(relative(p), 'front matter', 'the file must start with a front matter block between two "---" lines');
  let data: unknown;
  try {
    data = parseYaml(m[1] ?? '');
  } catch (error) {
    const where = error instanceof YAMLParseError && error.linePos ? ` at line ${error.linePos[0].line + 1}` : '';
    throw new LessonFormatError(relative(p), 'front matter', `not valid YAML${where}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new LessonFormatError(relative(p), 'front matter', 'must be a mapping of fields');
  return { data, body: m[2] ?? '' };
}

function definesFunction(source: string, name: string): boolean {
  const escaped = name.replace(/\$/g, '\\$');
  return new RegExp(`(function\\s+${escaped}\\s*\\()|((const|let|var)\\s+${escaped}\\s*=)`).test(source);
}

/** Steps must name nodes and clients the lesson's lab has, and replication steps need a replica. */
function checkStepsFit(scenario: Scenario, fm: FrontMatter, p: string): void {
  scenario.steps.forEach((step: ScenarioStep, i) => {
    if ('node' in step && step.node > fm.topology.nodes) {
      throw new LessonFormatError(relative(p), `steps.${i}.node`, `Node ${step.node} does not exist: the lesson's lab has ${fm.topology.nodes} node(s)`);
    }
    if ('client' in step && step.client > scenario.clients) {
      throw new LessonFormatError(relative(p), `steps.${i}.client`, `Client ${step.client} does not exist: the scenario runs ${scenario.clients} client(s)`);
    }
    if (step.when?.client !== undefined && step.when.client > scenario.clients) {
      throw new LessonFormatError(relative(p), `steps.${i}.when.client`, `Client ${step.when.client} does not exist: the scenario runs ${scenario.clients} client(s)`);
    }
    if (step.when && 'node' in step.when && step.when.node !== undefined && step.when.node > fm.topology.nodes) {
      throw new LessonFormatError(relative(p), `steps.${i}.when.node`, `Node ${step.when.node} does not exist: the lesson's lab has ${fm.topology.nodes} node(s)`);
    }
    if (needsReplica(step.action) && fm.topology.kind !== 'replicated') {
      throw new LessonFormatError(relative(p), `steps.${i}.action`, `"${step.action}" needs the "replicated" topology`);
    }
  });
}

/** Hints are `## ` sections; the text before the first heading is ignored. */
function splitHints(text: string, p: string): string[] {
  const hints = text
    .split(/^## .*$/m)
    .slice(1)
    .map((h) => h.trim())
    .filter(Boolean);
  if (hints.length === 0) throw new LessonFormatError(relative(p), '', 'write at least one hint as a "## Hint" section');
  return hints;
}

/** Only known components; every `<Diagram src="…">` must exist under `public/lessons/<slug>/`. */
function checkBody(body: string, slug: string, p: string): string[] {
  if (body.trim().length < 200) throw new LessonFormatError(relative(p), 'body', 'the lesson text is missing or too short');
  for (const m of body.matchAll(/<([A-Z][A-Za-z0-9]*)/g)) {
    const name = m[1] ?? '';
    if (!(MDX_COMPONENTS as readonly string[]).includes(name)) {
      throw new LessonFormatError(relative(p), 'body', `unknown component <${name}>; use one of ${MDX_COMPONENTS.join(', ')}`);
    }
  }
  const diagrams: string[] = [];
  for (const m of body.matchAll(/<Diagram\b[^>]*\bsrc="([^"]+)"/g)) {
    const src = m[1] ?? '';
    if (!/^[a-z0-9-]+\.svg$/.test(src)) throw new LessonFormatError(relative(p), 'body', `Diagram src "${src}" must be a file name like "race.svg"`);
    const onDisk = path.join(/*turbopackIgnore: true*/ process.cwd(), 'public', 'lessons', slug, src);
    if (!fs.existsSync(onDisk)) throw new LessonFormatError(relative(p), 'body', `Diagram "${src}" is missing: expected ${relative(onDisk)}`);
    diagrams.push(`/lessons/${slug}/${src}`);
  }
  return diagrams;
}

/** Each fault the learner is asked for must be one of the break scenario's own steps: the task is that break, by hand. */
function checkDoItYourself(fm: FrontMatter, scenarios: readonly LessonScenario[], p: string): void {
  const diy = fm.doItYourself;
  if (!diy) return;
  const scenario = scenarios.find((s) => s.id === diy.scenario)?.scenario;
  if (!scenario) return; // the front matter's own check named it
  handStepIndexes(scenario, diy.byHand).forEach((i, n) => {
    if (i === -1) throw new LessonFormatError(relative(p), `doItYourself.byHand.${n}`, `"${diy.byHand[n]?.action}" on that target is not a step of the scenario "${scenario.id}"`);
  });
}

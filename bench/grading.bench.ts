/**
 * "Check my solution", timed (issue 31): for each lesson, the reference
 * solution (it must be accepted) and the lesson's wrong answers (each must be
 * rejected), checked exactly as the button does — `exercise:check` from a
 * tab with a browser identity, through a lab server in its own process, as
 * `npm start` runs it — while five other labs run five-client Redlock loops,
 * the way a class loads the server. Time is from the request to its answer.
 * A wrong verdict (a wrong answer accepted, the right one rejected, either
 * left "not decided") fails the benchmark, loudly.
 *
 *   npm run bench -- grading                                   (every lesson; ~15 min on 2 cores)
 *   npm run bench -- grading --lessons naive-lock,redlock --right 2 --wrong 3
 *
 * `--right N`: checks of the solution per lesson (3). `--wrong N`: wrong answers per lesson, a sample drawn
 * with `--seed S` (default: every one, once). `--busy N`: busy labs beside the checks (5).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Socket } from 'socket.io-client';
import type { GradeResult } from '@/lib/grading';
import { loadAllLessons, type Lesson } from '@/lib/lessons/load';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { drawSeed, seededRandom } from '@/lib/random';
import { connectedTab, startBusyLabs } from './busy-labs';
import { startServerProcess, type ServerProcess } from './server-process';
import { percentile, printTable, type Row } from './stats';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The issue's goals. */
const WRONG_MEDIAN_S = 5;
const WRONG_MAX_S = 20;
const RIGHT_MEDIAN_S = 12;
/** A check unanswered this long is reported as such (a learner would have given up long before). */
const CHECK_TIMEOUT_MS = 300_000;

interface Options {
  lessons: Lesson[];
  right: number;
  /** null: every wrong answer once. */
  wrong: number | null;
  seed: number;
  busy: number;
}

function count(name: string, raw: string | undefined, fallback: number | null): number | null {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} takes a whole number ≥ 0, not "${raw}"`);
  return n;
}

function options(): Options {
  const { values } = parseArgs({
    options: { lessons: { type: 'string' }, right: { type: 'string' }, wrong: { type: 'string' }, seed: { type: 'string' }, busy: { type: 'string' } },
    strict: true,
  });
  const all = loadAllLessons();
  const asked = values.lessons?.split(',').map((s) => s.trim()).filter(Boolean);
  const lessons = asked
    ? asked.map((name) => {
        const lesson = all.find((l) => l.slug === name || l.folder === name);
        if (!lesson) throw new Error(`no lesson "${name}"; the lessons are ${all.map((l) => l.slug).join(', ')}`);
        return lesson;
      })
    : all;
  return {
    lessons,
    right: count('right', values.right, 3)!,
    wrong: count('wrong', values.wrong, null),
    seed: count('seed', values.seed, drawSeed())!,
    busy: count('busy', values.busy, 5)!,
  };
}

/** `n` of `items` drawn without replacement by `random`, in their own order; all of them when `n` is null or more. */
function sample<T>(items: readonly T[], n: number | null, random: () => number): T[] {
  if (n === null || n >= items.length) return [...items];
  const indices = items.map((_, i) => i);
  for (let i = indices.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [indices[i], indices[j]] = [indices[j]!, indices[i]!];
  }
  return indices
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => items[i]!);
}

type Expected = 'accepted' | 'rejected';
type Verdict = Expected | 'not decided' | 'no answer';

interface Check {
  lesson: string;
  /** `solution` or `wrong/<name>`. */
  answer: string;
  expected: Expected;
  verdict: Verdict;
  seconds: number;
  /** What decided it, in words: the check that failed, the busy sentence, the error. */
  why: string;
}

async function check(tab: Tab, lesson: Lesson, answer: string, code: string, expected: Expected): Promise<Check> {
  const began = performance.now();
  let verdict: Verdict;
  let why = '';
  try {
    const answered = await tab.timeout(CHECK_TIMEOUT_MS).emitWithAck('exercise:check', { slug: lesson.slug, code, locale: 'en' });
    if (!answered.ok) {
      verdict = 'no answer';
      why = `refused: ${answered.error.message}`;
    } else {
      const result: GradeResult = answered.value;
      verdict = result.passed ? 'accepted' : result.busy ? 'not decided' : 'rejected';
      const failed = result.runs.find((r) => !r.passed);
      why = result.busy ?? (failed ? `${failed.scenarioTitle} (${result.runs.length} of ${result.total} runs)` : `${result.runs.length} of ${result.total} runs`);
    }
  } catch (error) {
    verdict = 'no answer';
    why = error instanceof Error ? error.message : String(error);
  }
  const seconds = (performance.now() - began) / 1000;
  const result: Check = { lesson: lesson.slug, answer, expected, verdict, seconds, why };
  const mark = verdict === expected ? '' : '   <-- WRONG VERDICT';
  console.log(`  ${lesson.slug} ${answer}: ${verdict} in ${seconds.toFixed(1)} s — ${why}${mark}`);
  return result;
}

/** One learner on the lesson's page: a tab of its own browser, its lab of the lesson's topology, the checks one after another. */
async function gradeLesson(url: string, lesson: Lesson, opts: Options, random: () => number): Promise<Check[]> {
  const tab = await connectedTab(url);
  try {
    const joined = await tab.timeout(120_000).emitWithAck('lab:join', { topology: lesson.topology, clients: lesson.defaultClients });
    if (!joined.ok) throw new Error(`${lesson.slug}: the lab was refused: ${joined.error.message}`);
    const checks: Check[] = [];
    for (let i = 1; i <= opts.right; i++) checks.push(await check(tab, lesson, `solution #${i}`, lesson.solution, 'accepted'));
    for (const wrong of sample(lesson.wrong, opts.wrong, random)) checks.push(await check(tab, lesson, `wrong/${wrong.name}`, wrong.code, 'rejected'));
    return checks;
  } finally {
    tab.close();
  }
}

const s = (seconds: number): string => (Number.isNaN(seconds) ? '–' : `${seconds.toFixed(1)} s`);
const median = (values: number[]) => percentile(values, 50);
const max = (values: number[]) => (values.length ? Math.max(...values) : NaN);

function rows(label: string, checks: Check[]): Row[] {
  const right = checks.filter((c) => c.expected === 'accepted');
  const wrong = checks.filter((c) => c.expected === 'rejected');
  const rightS = right.map((c) => c.seconds);
  const wrongS = wrong.map((c) => c.seconds);
  const accepted = right.filter((c) => c.verdict === 'accepted').length;
  const rejected = wrong.filter((c) => c.verdict === 'rejected').length;
  const out: Row[] = [];
  if (right.length) {
    out.push({ measure: `${label}: right answer, median (n ${right.length})`, value: s(median(rightS)), goal: `≤ ${RIGHT_MEDIAN_S} s`, met: median(rightS) <= RIGHT_MEDIAN_S });
    out.push({ measure: `${label}: right answer, max`, value: s(max(rightS)), goal: '–', met: null });
  }
  if (wrong.length) {
    out.push({ measure: `${label}: wrong answers, median (n ${wrong.length})`, value: s(median(wrongS)), goal: `≤ ${WRONG_MEDIAN_S} s`, met: median(wrongS) <= WRONG_MEDIAN_S });
    out.push({ measure: `${label}: wrong answers, max`, value: s(max(wrongS)), goal: `≤ ${WRONG_MAX_S} s`, met: max(wrongS) <= WRONG_MAX_S });
  }
  out.push({
    measure: `${label}: verdicts`,
    value: [right.length ? `${accepted}/${right.length} accepted` : '', wrong.length ? `${rejected}/${wrong.length} rejected` : ''].filter(Boolean).join(', '),
    goal: 'every one right',
    met: accepted === right.length && rejected === wrong.length,
  });
  return out;
}

async function main(): Promise<number> {
  const opts = options();
  const random = seededRandom(opts.seed);
  const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(
    `grading: ${opts.lessons.map((l) => l.slug).join(', ')}; ${opts.right} checks of the solution and ${opts.wrong === null ? 'every wrong answer' : `${opts.wrong} wrong answers (seed ${opts.seed})`} per lesson; ${opts.busy} busy labs; ${os.cpus().length} cores, load ${load()}`,
  );
  // The server as `npm start` runs it, in a process of its own: the busy labs' tabs live here, and their
  // socket work must not be counted against the loop that grades. Its own limits, defaults included, stand.
  const server: ServerProcess = await startServerProcess({});
  let stopping: Promise<{ leftoverNodes: number }> | null = null;
  const stopServer = () => (stopping ??= server.stop());
  const interrupted = () => void stopServer().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const checks: Check[] = [];
  let busyNote = '';
  try {
    const busy = await startBusyLabs(server.url, opts.busy);
    try {
      // Every loop going before the first check is timed.
      const ready = performance.now();
      while (busy.events() === 0 && opts.busy > 0 && performance.now() - ready < 60_000) await new Promise((r) => setTimeout(r, 100));
      if (opts.busy > 0 && busy.events() === 0) throw new Error('the busy labs produced no history within 60 s: they are not busy');
      const began = performance.now();
      for (const lesson of opts.lessons) checks.push(...(await gradeLesson(server.url, lesson, opts, random)));
      const minutes = (performance.now() - began) / 60_000;
      const events = busy.events();
      const done = await busy.stop();
      busyNote = `busy labs: ${opts.busy}, ${done.runs} runs started, ${events} history events pushed to their tabs; ${done.refused.length} refused${done.refused.length ? ` (${[...new Set(done.refused)].join('; ')})` : ''}; checks took ${minutes.toFixed(1)} min; load ${load()}`;
    } catch (error) {
      await busy.stop();
      throw error;
    }
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    const { leftoverNodes } = await stopServer();
    if (leftoverNodes > 0) console.error(`${leftoverNodes} redis-servers outlived the server and were killed by PID`);
  }

  const byLesson = opts.lessons.flatMap((l) => rows(l.slug, checks.filter((c) => c.lesson === l.slug)));
  printTable(`"Check my solution" with ${opts.busy} busy labs (issue 31)`, opts.lessons.length > 1 ? [...byLesson, ...rows('all lessons', checks)] : byLesson);
  console.log(`\n${busyNote}`);

  const wrongVerdicts = checks.filter((c) => c.verdict !== c.expected);
  if (wrongVerdicts.length === 0) return 0;
  console.error(`\n!!! ${wrongVerdicts.length} WRONG VERDICT${wrongVerdicts.length > 1 ? 'S' : ''} — "Check my solution" answered wrongly:`);
  for (const c of wrongVerdicts) console.error(`!!!   ${c.lesson} ${c.answer}: expected ${c.expected}, got ${c.verdict.toUpperCase()} after ${c.seconds.toFixed(1)} s — ${c.why}`);
  return 1;
}

// A closed tab's timers and the server's last handles would keep the process a while longer.
process.exit(await main());

/**
 * The part of a learner's program a probe may call: its imports, functions,
 * classes and the set-up before its first `await` (connections, constants,
 * scripts), without the driver that follows (the loop that takes the lock and
 * runs the job). A probe appends its own driver, so it calls the learner's
 * function in the situations it chooses instead of the ones the program's own
 * driver happens to create.
 *
 * Dropped statements become blank lines, so an error in the learner's code is
 * still reported at the learner's line.
 */
import { parse, type Node } from 'acorn';
import { transform } from 'sucrase';
import { say } from '@/lib/checker/said';
import type { Said, Words } from '@/lib/words';

/** A failure says why in English and as data (the compiler's own message stays a value, as it wrote it). */
export type Declarations = { ok: true; code: string } | { ok: false; error: string; words: Words };

const failed = (said: Said): Declarations => ({ ok: false, error: said.message, words: said.words });

interface Statement extends Node {
  type: string;
}

const ALWAYS_KEPT = new Set(['ImportDeclaration', 'FunctionDeclaration', 'ClassDeclaration']);
const FUNCTION_NODES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

export function learnerDeclarations(source: string): Declarations {
  let js: string;
  try {
    // Types out, imports left as they are: the sandbox transpiles the whole probe program again.
    js = transform(source, { transforms: ['typescript'], production: true, disableESTransforms: true }).code;
  } catch (error) {
    return failed(say('grading.doesNotCompile', { error: (error as Error).message }));
  }
  let body: Statement[];
  try {
    body = (parse(js, { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true }) as unknown as { body: Statement[] }).body;
  } catch (error) {
    return failed(say('judging.doesNotParse', { error: (error as Error).message }));
  }
  let driverStarted = false;
  const dropped: [number, number][] = [];
  for (const statement of body) {
    const declaration = unwrapExport(statement);
    if (ALWAYS_KEPT.has(declaration.type)) continue;
    if (!driverStarted && !awaits(declaration)) continue;
    driverStarted = true;
    dropped.push([statement.start, statement.end]);
  }
  return { ok: true, code: blankOut(js, dropped) };
}

/** `export function f` keeps its function; the probe program is one script, so the `export` itself does nothing. */
function unwrapExport(statement: Statement): Statement {
  if (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') {
    const inner = (statement as unknown as { declaration?: Statement | null }).declaration;
    if (inner) return inner;
  }
  return statement;
}

/** Whether the statement awaits at its own level (an `await` inside a nested function runs only when called). */
function awaits(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(awaits);
  const n = node as { type?: unknown; await?: unknown };
  if (typeof n.type === 'string') {
    if (n.type === 'AwaitExpression') return true;
    if (n.type === 'ForOfStatement' && n.await === true) return true;
    if (FUNCTION_NODES.has(n.type)) return false;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'start' || key === 'end' || key === 'loc') continue;
    if (value !== null && typeof value === 'object' && awaits(value)) return true;
  }
  return false;
}

/** Each range's characters become spaces, its line breaks stay: every kept line keeps its number. */
function blankOut(js: string, ranges: readonly [number, number][]): string {
  if (ranges.length === 0) return js;
  const chars = js.split('');
  for (const [from, to] of ranges) {
    for (let i = from; i < to; i++) if (chars[i] !== '\n') chars[i] = ' ';
  }
  return chars.join('');
}

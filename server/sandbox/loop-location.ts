/**
 * Where a client that never yielded was spinning, in the learner's lines.
 *
 * QuickJS stamps the error it throws at an interrupt with the last source
 * position its bytecode recorded before the loop's head, and it records
 * positions only at calls and a few other operations, never at a plain
 * statement. So `while (true) { i++; }` is reported at the call before the loop,
 * or at the start of its function: the raw position is not the loop. The loop
 * is found in the (transpiled) script instead: the innermost loop whose source
 * holds that position, else the first loop of the same function after it.
 * (QuickJS also polls for interrupts when a function is called, and then the
 * position is that call's, inside the loop.) One case stays ambiguous: a call
 * that ends one loop's body right before the next loop reads as the first
 * loop. With no position at all (the interrupt landed inside a promise job
 * whose rejection learner code swallowed) the only loop that cannot end by its
 * condition — `while (true)`, `for (;;)` — is the answer, if there is one.
 */
import { parse } from 'acorn';

/** 1-based line and column, in the script's own coordinates (the wrapper is on line 1). */
export interface ScriptPosition {
  line: number;
  column: number;
}

interface AstNode {
  type: string;
  start: number;
  end: number;
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
  test?: AstNode | null;
  [key: string]: unknown;
}

interface Loop {
  node: AstNode;
  /** The innermost function around the loop (null: the script's top level). */
  fn: AstNode | null;
  depth: number;
}

const LOOPS = new Set(['WhileStatement', 'DoWhileStatement', 'ForStatement', 'ForInStatement', 'ForOfStatement']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function collect(root: AstNode): { loops: Loop[]; functions: AstNode[] } {
  const loops: Loop[] = [];
  const functions: AstNode[] = [];
  const visit = (node: AstNode, fn: AstNode | null, depth: number): void => {
    if (LOOPS.has(node.type)) loops.push({ node, fn, depth });
    const inner = FUNCTIONS.has(node.type) ? node : fn;
    if (FUNCTIONS.has(node.type)) functions.push(node);
    for (const key of Object.keys(node)) {
      if (key === 'loc') continue;
      const child = node[key];
      if (Array.isArray(child)) {
        for (const c of child) if (isNode(c)) visit(c, inner, depth + 1);
      } else if (isNode(child)) visit(child, inner, depth + 1);
    }
  };
  visit(root, null, 0);
  return { loops, functions };
}

/** Acorn's columns are 0-based, QuickJS's 1-based: compare positions as (line, 1-based column). */
function toPos(p: { line: number; column: number }): ScriptPosition {
  return { line: p.line, column: p.column + 1 };
}
function before(a: ScriptPosition, b: ScriptPosition): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}
function holds(node: AstNode, at: ScriptPosition): boolean {
  return !before(at, toPos(node.loc.start)) && before(at, toPos(node.loc.end));
}

/** A loop whose condition cannot end it: `while (true)`, `for (;;)`, `do … while (1)`. */
function endlessByCondition(node: AstNode): boolean {
  if (node.type !== 'WhileStatement' && node.type !== 'DoWhileStatement' && node.type !== 'ForStatement') return false;
  const test = node.test;
  if (test === null || test === undefined) return node.type === 'ForStatement';
  return test.type === 'Literal' && Boolean((test as unknown as { value: unknown }).value);
}

/** The loop a client was spinning in; `at` is the interrupted frame's position when QuickJS gave one. */
export function locateSpinningLoop(script: string, at: ScriptPosition | null): ScriptPosition | null {
  let root: AstNode;
  try {
    root = parse(script, { ecmaVersion: 'latest', sourceType: 'script', locations: true, allowAwaitOutsideFunction: true }) as unknown as AstNode;
  } catch {
    return at;
  }
  const { loops, functions } = collect(root);
  if (at) {
    const fn = functions.filter((f) => holds(f, at)).reduce<AstNode | null>((inner, f) => (inner === null || f.start >= inner.start ? f : inner), null);
    const own = loops.filter((l) => l.fn === fn);
    const around = own.filter((l) => holds(l.node, at)).sort((a, b) => b.depth - a.depth)[0];
    if (around) return toPos(around.node.loc.start);
    const after = own.filter((l) => !before(toPos(l.node.loc.start), at)).sort((a, b) => a.node.start - b.node.start)[0];
    if (after) return toPos(after.node.loc.start);
  }
  const endless = loops.filter((l) => endlessByCondition(l.node));
  if (endless.length === 1 && endless[0]) return toPos(endless[0].node.loc.start);
  return at;
}

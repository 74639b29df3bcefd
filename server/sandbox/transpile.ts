/**
 * Learner source → a script QuickJS can evaluate. Sucrase keeps line numbers
 * (it never adds or removes lines), and the CommonJS wrapper sits on line 1
 * without a newline, so a QuickJS stack position `file:L:C` is the learner's
 * line L; only line-1 columns need shifting by what was prepended.
 */
import { transform } from 'sucrase';
import type { Diagnostic } from './types';

/** The wrapper is an async function so top-level `await` works as in an ES module. */
const WRAP_HEAD = '(async function (exports, require, module, __filename, __dirname) {';
const WRAP_TAIL = '\n})';

export type TranspileResult =
  | { ok: true; script: string; headLength: number }
  | { ok: false; diagnostic: Diagnostic };

export function transpileLearnerCode(code: string, fileName: string): TranspileResult {
  let out: string;
  try {
    out = transform(code, {
      transforms: ['typescript', 'imports'],
      filePath: fileName,
      production: true,
      // Learners type `import x from 'ioredis'` like in Node: default interop, no `.default` surprises.
      enableLegacyTypeScriptModuleInterop: false,
    }).code;
  } catch (error) {
    return { ok: false, diagnostic: syntaxDiagnostic(error) };
  }
  // Sucrase puts its helpers on line 1; measure them so line-1 columns can be mapped back.
  const firstLineIn = code.split('\n', 1)[0] ?? '';
  const firstLineOut = out.split('\n', 1)[0] ?? '';
  const helperLength = Math.max(0, firstLineOut.length - firstLineIn.length);
  return { ok: true, script: WRAP_HEAD + out + WRAP_TAIL, headLength: WRAP_HEAD.length + helperLength };
}

function syntaxDiagnostic(error: unknown): Diagnostic {
  const message = error instanceof Error ? error.message : String(error);
  const loc = (error as { loc?: { line?: number; column?: number } }).loc;
  const fromText = /\((\d+):(\d+)\)\s*$/.exec(message);
  const line = loc?.line ?? Number(fromText?.[1] ?? 1);
  // Sucrase's column, as reported, already lands on the offending token when read 1-based.
  const column = Math.max(1, loc?.column ?? Number(fromText?.[2] ?? 1));
  return {
    severity: 'error',
    kind: 'syntax',
    // Sucrase says "Error transforming program.ts: …": the learner only needs what is wrong.
    message: `SyntaxError: ${message.replace(/\s*\(\d+:\d+\)\s*$/, '').replace(/^Error transforming [^:]*: /, '')}`,
    line,
    column,
  };
}

/**
 * The learner-source position of an error, from a QuickJS stack
 * ("    at f (program.ts:12:7)"), taking the first frame in the learner's file.
 */
export function locateInLearnerSource(
  stack: string | undefined,
  fileName: string,
  headLength: number,
): { line: number; column: number } | null {
  if (!stack) return null;
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const frame = new RegExp(`${escaped}:(\\d+)(?::(\\d+))?`).exec(stack);
  if (!frame) return null;
  const line = Number(frame[1]);
  let column = frame[2] ? Number(frame[2]) : 1;
  if (line === 1) column = Math.max(1, column - headLength);
  return { line, column };
}

/**
 * The position of the innermost frame of a QuickJS stack when that frame is the learner's,
 * in the script's own coordinates (line 1 still holds the wrapper); null when it is not.
 */
export function topFramePosition(stack: string | undefined, fileName: string): { line: number; column: number } | null {
  const first = stack?.split('\n').find((l) => l.trim() !== '');
  if (!first) return null;
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const frame = new RegExp(`\\(${escaped}:(\\d+)(?::(\\d+))?\\)`).exec(first);
  if (!frame) return null;
  return { line: Number(frame[1]), column: frame[2] ? Number(frame[2]) : 1 };
}

/** A script position in the learner's coordinates: only line 1 is shifted, by what the wrapper prepended. */
export function toLearnerPosition(at: { line: number; column: number }, headLength: number): { line: number; column: number } {
  return at.line === 1 ? { line: 1, column: Math.max(1, at.column - headLength) } : at;
}

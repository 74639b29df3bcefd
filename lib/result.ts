/**
 * Every command a browser sends is acknowledged with a Result: the value on
 * success, or an error a person can read. Errors carry a stable code so the
 * UI (and tests) can branch without parsing words.
 */
import type { Said, Words } from './words';

export type ErrorCode =
  | 'invalid-input' // the payload failed validation; nothing changed
  | 'not-found' // unknown lab, node, client or link
  | 'conflict' // the fault is already in effect, or the target is in the wrong state
  | 'lab-full' // the server hit its cap on labs
  | 'no-lab' // the socket has not joined a lab yet
  | 'forbidden' // the socket may not do that
  | 'rate-limited' // too many actions too fast from this socket; nothing changed, try again shortly
  | 'classroom-full' // the classroom has as many learners as it may
  | 'internal'; // a bug or an environment failure; logged on the server

export interface LabError {
  code: ErrorCode;
  /** In English, always: logs, tests and pages from before read it. */
  message: string;
  /** The same sentence as data, so a page writes it in its own language (a refusal a learner's click met). */
  words?: Words;
  /**
   * For invalid-input: which field, in dotted form, and what was wrong. These stay English (zod's own words):
   * they answer a malformed message from a page or script, not a learner's click, so no page translates them.
   */
  issues?: { path: string; message: string }[];
}

/** A refusal's words: English only (a string), or English with its data (lib/words `Said`). */
export type ErrorText = string | Said;

function spelled(text: ErrorText): { message: string; words?: Words } {
  return typeof text === 'string' ? { message: text } : { message: text.message, words: text.words };
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: LabError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, text: ErrorText, issues?: LabError['issues']): Result<never> => ({
  ok: false,
  error: { code, ...spelled(text), ...(issues ? { issues } : {}) },
});

/** Thrown inside the server when an operation is refused; realtime turns it into a Result. */
export class LabOperationError extends Error {
  readonly words?: Words;

  constructor(
    readonly code: ErrorCode,
    text: ErrorText,
    readonly issues?: LabError['issues'],
  ) {
    const { message, words } = spelled(text);
    super(message);
    this.name = 'LabOperationError';
    if (words) this.words = words;
  }

  toLabError(): LabError {
    return { code: this.code, message: this.message, ...(this.words ? { words: this.words } : {}), ...(this.issues ? { issues: this.issues } : {}) };
  }
}

/** Any thrown value as a Result failure; unexpected errors keep their message but are marked internal. */
export function toFailure(error: unknown): Result<never> {
  if (error instanceof LabOperationError) return { ok: false, error: error.toLabError() };
  return fail('internal', error instanceof Error ? error.message : String(error));
}

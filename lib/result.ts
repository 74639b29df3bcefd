/**
 * Every command a browser sends is acknowledged with a Result: the value on
 * success, or an error a person can read. Errors carry a stable code so the
 * UI (and tests) can branch without parsing words.
 */
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
  message: string;
  /** For invalid-input: which field, in dotted form, and what was wrong. */
  issues?: { path: string; message: string }[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: LabError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string, issues?: LabError['issues']): Result<never> => ({
  ok: false,
  error: issues ? { code, message, issues } : { code, message },
});

/** Thrown inside the server when an operation is refused; realtime turns it into a Result. */
export class LabOperationError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: LabError['issues'],
  ) {
    super(message);
    this.name = 'LabOperationError';
  }

  toLabError(): LabError {
    return this.issues ? { code: this.code, message: this.message, issues: this.issues } : { code: this.code, message: this.message };
  }
}

/** Any thrown value as a Result failure; unexpected errors keep their message but are marked internal. */
export function toFailure(error: unknown): Result<never> {
  if (error instanceof LabOperationError) return { ok: false, error: error.toLabError() };
  return fail('internal', error instanceof Error ? error.message : String(error));
}

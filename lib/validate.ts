import type { z } from 'zod';
import { LabOperationError } from './result';

/**
 * Parses untrusted input, or throws an `invalid-input` error that names each
 * bad field in words ("node: must be at most 7") and changes nothing.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(payload)',
    message: issue.message,
  }));
  // English only, on purpose (no `words`): the issues are zod's, and they answer a malformed message from a page
  // or a script, not a learner's click; the pages' own forms never send one.
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  throw new LabOperationError('invalid-input', `Invalid ${what}: ${summary}`, issues);
}

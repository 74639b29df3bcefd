/**
 * The page's side of shared runs (the wire: lib/shared-runs.ts): share a recorded run, fetch one by id, delete one.
 * Each answer is a Result; a server that cannot be reached, or an answer that is not one, is a failure of its own
 * (`unreachable`), which the page says in its words.
 */
import type { RecordedRun } from '@/components/lab/run-state';
import type { LabError } from '@/lib/result';
import { answerSchema, createdSchema, fetchedSchema, SHARED_RUNS_API, sharedRunApiPath, type SharedRunCreated, type SharedRunFetched } from '@/lib/shared-runs';
import type { z } from 'zod';

export type SharedRunAnswer<T> = { ok: true; value: T } | { ok: false; error: LabError } | { ok: false; unreachable: string };

async function ask<T>(path: string, init: RequestInit, value: z.ZodType<T>): Promise<SharedRunAnswer<T>> {
  let raw: unknown;
  try {
    const response = await fetch(path, { credentials: 'same-origin', cache: 'no-store', ...init });
    raw = await response.json();
  } catch (error) {
    return { ok: false, unreachable: error instanceof Error ? error.message : String(error) };
  }
  const answer = answerSchema.safeParse(raw);
  if (!answer.success) return { ok: false, unreachable: 'the answer is not a Lock Lab result' };
  if (!answer.data.ok) return { ok: false, error: answer.data.error as LabError };
  const parsed = value.safeParse(answer.data.value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, unreachable: 'the answer is not a Lock Lab result' };
}

export const shareRun = (run: RecordedRun): Promise<SharedRunAnswer<SharedRunCreated>> =>
  ask(SHARED_RUNS_API, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(run) }, createdSchema);

export const fetchSharedRun = (id: string): Promise<SharedRunAnswer<SharedRunFetched>> => ask(sharedRunApiPath(id), { method: 'GET' }, fetchedSchema);

export const deleteSharedRun = (id: string): Promise<SharedRunAnswer<unknown>> => ask(sharedRunApiPath(id), { method: 'DELETE' }, answerSchema.options[0].shape.value);

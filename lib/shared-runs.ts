/**
 * Runs you can share: the wire between the page and the server, said once. A shared run is the exported run file
 * (lib/run-file-format.ts) kept by the server under an unguessable id; its link is `/runs/<id>`.
 *
 * HTTP, not the lab socket: a run may be as big as a run file (MAX_RUN_FILE_BYTES), far past what the socket takes in
 * one message (1 MB, server/realtime/socket-server.ts), and the page that opens a link has no lab and needs none.
 *   POST   /api/runs        body: the run file's JSON          → Result<SharedRunCreated>
 *   GET    /api/runs/<id>                                     → Result<{ yours, run }> (run: the file's JSON as kept)
 *   DELETE /api/runs/<id>   only the browser that shared it    → Result<{ deleted: true }>
 * Every refusal is a Result failure with the sentence's words (messages/<locale>/refusals.json, `sharedRuns`).
 */
import { z } from 'zod';
import type { Result } from './result';

export const SHARED_RUNS_API = '/api/runs';
/** The page that opens a shared run (app/[locale]/runs/[id]). */
export const SHARED_RUN_PAGE = '/runs';

/** 16 random bytes in base64url: exactly 22 characters of A–Z a–z 0–9 - _. */
export const sharedRunIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'not a shared run id');

export interface SharedRunCreated {
  id: string;
  /** The page's path (`/runs/<id>`); the page makes it a full link with its own origin. */
  path: string;
}

export interface SharedRunFetched {
  /** The asking browser shared it (and may delete it). */
  yours: boolean;
  /** The run file as it was shared; the page parses it (parseRunFile) and re-checks its verdict. */
  run: unknown;
}

export type ShareAnswer = Result<SharedRunCreated>;
export type FetchAnswer = Result<SharedRunFetched>;
export type DeleteAnswer = Result<{ deleted: true }>;

export const sharedRunPath = (id: string): string => `${SHARED_RUN_PAGE}/${id}`;
export const sharedRunApiPath = (id: string): string => `${SHARED_RUNS_API}/${encodeURIComponent(id)}`;

/** Answers, as the page reads them (validated: a proxy's error page or a truncated body is not a Result). */
const labErrorSchema = z.looseObject({ code: z.string(), message: z.string() });
export const answerSchema = z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: labErrorSchema })]);
export const createdSchema = z.object({ id: sharedRunIdSchema, path: z.string() });
export const fetchedSchema = z.object({ yours: z.boolean(), run: z.unknown() });

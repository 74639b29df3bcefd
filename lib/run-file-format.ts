/**
 * The exported run's format, said once for the page that writes and opens run files
 * (components/workspace/run-file.ts) and the server that keeps shared runs (server/store/).
 */
import { z } from 'zod';
import type { HistoryEvent } from './history';

export const RUN_FILE_FORMAT = 'lock-lab-run';
/** A run file (or a shared run) bigger than this is refused before parsing. */
export const MAX_RUN_FILE_BYTES = 20_000_000;

/** Every kind of history event, as a record so a new kind in lib/history.ts cannot be forgotten here (a run holding it would not open). */
const EVENT_KINDS: Record<HistoryEvent['type'], true> = {
  nemesis: true,
  node: true,
  guard: true,
  redis: true,
  job: true,
  store: true,
  client: true,
  console: true,
  lock: true,
  scenario: true,
};
export const EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(EVENT_KINDS));

/**
 * What the server checks of a run it is asked to keep: that it is a run file of this version whose events are all
 * events it knows. The page that opens it parses it fully (parseRunFile) and re-checks its verdict itself.
 */
export const runFileEnvelopeSchema = z.looseObject({
  format: z.literal(RUN_FILE_FORMAT),
  version: z.literal(1),
  history: z.array(z.looseObject({ seq: z.number(), t: z.number(), type: z.string().refine((type) => EVENT_TYPES.has(type), 'unknown event type') })),
});

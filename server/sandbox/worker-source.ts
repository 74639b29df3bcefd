/**
 * What a sandbox worker thread runs: `worker/main.ts` and everything it
 * imports, bundled once per server process (server/unprivileged/entry-source)
 * and evaluated by each new worker as one script.
 *
 * Why a bundle: a worker used to register tsx and load ~40 TypeScript modules
 * one by one, which was most of its boot (1.2–1.5 s on a busy two-core
 * machine, against 0.4–0.7 s from a bundle), and a check boots one per run.
 * It also means a worker reads nothing from the checkout: the guest modules
 * come with its boot data (guest-sources.ts).
 */
import { entrySource } from '../unprivileged/entry-source';

export const WORKER_ENTRY = 'server/sandbox/worker/main.ts';

export function workerSource(): string {
  return entrySource(WORKER_ENTRY);
}

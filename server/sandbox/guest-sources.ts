/**
 * The modules learner code can import (`guest/*.js`), read once per server
 * process on the main thread and handed to every worker with its boot data:
 * a worker runs from a bundle (worker-source.ts) and never reads the
 * checkout itself.
 */
import { readFileSync } from 'node:fs';

/** Evaluated in this order in every client: core.js first (it takes `__host`), then the modules that build on what it shares. */
export const GUEST_FILES = ['core.js', 'basics.js', 'redis-shared.js', 'ioredis.js', 'node-redis.js', 'redlock.js'] as const;

export interface GuestSource {
  /** The module's name in stack traces (`lab:ioredis.js`). */
  name: string;
  code: string;
}

let sources: readonly GuestSource[] | null = null;

export function guestSources(): readonly GuestSource[] {
  sources ??= GUEST_FILES.map((file) => ({ name: `lab:${file}`, code: readFileSync(new URL(`./guest/${file}`, import.meta.url), 'utf8') }));
  return sources;
}

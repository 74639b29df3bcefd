/**
 * The store: what Lock Lab keeps across restarts (today: shared runs), on embedded Postgres (PGlite) by default or
 * on a Postgres server when DATABASE_URL is set. One schema and one list of migrations for both (migrations.ts),
 * applied when the store opens. The lab server opens it at start and closes it on shutdown (server/app-server.ts).
 */
import { migrate } from './migrations';
import { openPgSql } from './pg-sql';
import { openPgliteSql } from './pglite-sql';
import { sharedRuns, type SharedRunBounds, type SharedRuns } from './shared-runs';
import type { Sql } from './sql';
import { timedSql } from './timed-sql';
import { addStoreMetricsSource } from '../ops/metrics';

export type StoreConfig =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'postgres'; url: string }
  /** LOCKLAB_STORE=0: nothing is kept (engine-only tests and benchmarks); sharing a run is refused in words. */
  | { kind: 'none' };

export interface Store {
  readonly kind: 'pglite' | 'postgres';
  /** Where the data is, for the log: the folder, or the server without its password. */
  readonly where: string;
  readonly sharedRuns: SharedRuns;
  close(): Promise<void>;
}

/** A store that could not open: its message is one sentence that says which and why (server/index.ts prints it). */
export class StoreOpenError extends Error {
  constructor(where: string, cause: unknown) {
    super(`its store (${where}) cannot be opened: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreOpenError';
  }
}

/** A Postgres URL without its password, safe to log. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return `Postgres at ${u.host}${u.pathname}`;
  } catch {
    return 'Postgres (DATABASE_URL is not a URL)';
  }
}

export async function openStore(config: StoreConfig, bounds: SharedRunBounds): Promise<Store | null> {
  if (config.kind === 'none') return null;
  const where = config.kind === 'pglite' ? `PGlite in ${config.dataDir}` : describeUrl(config.url);
  const started = performance.now();
  let sql: Sql;
  try {
    sql = config.kind === 'pglite' ? await openPgliteSql(config.dataDir) : await openPgSql(config.url);
  } catch (error) {
    throw new StoreOpenError(where, error);
  }
  try {
    const applied = await migrate(sql);
    const ms = Math.round(performance.now() - started);
    console.log(`[store] ${where}: open in ${ms} ms${applied.length ? `; applied migration(s) ${applied.join(', ')}` : ''}`);
  } catch (error) {
    await sql.close();
    throw new StoreOpenError(where, error);
  }
  const runs = sharedRuns(timedSql(sql, config.kind), bounds);
  const removeMetrics = addStoreMetricsSource({
    kind: config.kind,
    size: async () => {
      const { runs: count, bytes } = await runs.total();
      return { sharedRuns: count, sharedRunBytes: bytes };
    },
  });
  return {
    kind: config.kind,
    where,
    sharedRuns: runs,
    close: async () => {
      removeMetrics();
      await sql.close();
    },
  };
}

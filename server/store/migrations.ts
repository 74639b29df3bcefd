/**
 * The schema, as one ordered list of migrations applied at start, the same on
 * PGlite and on a Postgres server. A migration is never edited once released:
 * a change is a new entry at the end. `schema_migrations` records what ran, so
 * a restart applies nothing twice; several servers starting at once on one
 * Postgres take turns through an advisory lock.
 */
import type { Sql } from './sql';

export interface Migration {
  /** 1, 2, 3, … in order, never reused. */
  version: number;
  /** What it does, for the log and the migrations table. */
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'shared runs',
    // body: the exported run as the page sends it (components/workspace/run-file.ts), kept as text so it is read
    // back byte for byte; bytes: its UTF-8 size, summed for the per-browser and total bounds without reading bodies.
    sql: `
      CREATE TABLE shared_runs (
        id text PRIMARY KEY,
        owner text NOT NULL,
        bytes integer NOT NULL CHECK (bytes > 0),
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX shared_runs_owner ON shared_runs (owner);
    `,
  },
];

/** Any constant key: the lock every server's migrations take, so two starting at once never apply one twice. */
const MIGRATION_LOCK = 7_331_001;

/** Applies the migrations not yet recorded, all in one transaction (a failed one leaves none applied); returns the versions it applied. */
export async function migrate(sql: Sql, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  assertOrdered(migrations);
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      for (const statement of statements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

/** A migration's statements one by one: a parameterised query (both drivers' extended protocol) takes one statement. */
function statements(text: string): string[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration "${m.name}" has version ${m.version}; the list must count 1, 2, 3, … in order`);
  });
}

/**
 * Shared runs in the store: an exported run (components/workspace/run-file.ts) kept under an unguessable id, owned
 * by the browser identity that shared it. Every bound is checked in the transaction that inserts, under one lock,
 * so two shares at once (or two servers on one Postgres) cannot together pass a bound neither passes alone.
 */
import { randomBytes } from 'node:crypto';
import type { SqlQuery, Sql } from './sql';

export interface SharedRunBounds {
  /** One run's body, bytes of UTF-8 (the import limit: a run that could not be opened from a file is not kept). */
  maxRunBytes: number;
  /** Runs one browser identity may keep. */
  runsPerOwner: number;
  /** Bytes one browser identity may keep. */
  bytesPerOwner: number;
  /** Bytes all shared runs together may take. */
  totalBytes: number;
}

export interface SharedRun {
  id: string;
  owner: string;
  body: string;
  bytes: number;
  createdAt: Date;
}

/** Why a share was refused, as data (the edge says it in words: server/store/shared-runs-http.ts). */
export type ShareRefusal =
  | { kind: 'too-big'; bytes: number; limit: number }
  | { kind: 'owner-runs'; limit: number }
  | { kind: 'owner-bytes'; bytes: number; limit: number }
  | { kind: 'total-bytes' };

export type ShareResult = { ok: true; id: string } | { ok: false; refusal: ShareRefusal };
export type DeleteResult = 'deleted' | 'not-found' | 'not-yours';

export interface SharedRuns {
  share(owner: string, body: string): Promise<ShareResult>;
  get(id: string): Promise<SharedRun | null>;
  /** Deletes the run only for its owner; anyone else changes nothing. */
  delete(id: string, owner: string): Promise<DeleteResult>;
  usage(owner: string): Promise<{ runs: number; bytes: number }>;
  /** Every browser's together: what the total bound counts (and /metrics shows). */
  total(): Promise<{ runs: number; bytes: number }>;
}

/** 16 random bytes, base64url: 22 characters nobody can guess or count through. */
export const newSharedRunId = (): string => randomBytes(16).toString('base64url');

/** The one lock every insert takes (any constant, distinct from the migrations'). */
const SHARE_LOCK = 7_331_002;

interface RunRow {
  id: string;
  owner: string;
  body: string;
  bytes: number;
  created_at: Date;
}

async function usageOf(q: SqlQuery, owner: string | null): Promise<{ runs: number; bytes: number }> {
  // Cast: COUNT and SUM are bigint, which one driver gives as a string; the bounds fit a double.
  const rows = await q.query<{ runs: number; bytes: number }>(
    `SELECT COUNT(*)::float8 AS runs, COALESCE(SUM(bytes), 0)::float8 AS bytes FROM shared_runs ${owner === null ? '' : 'WHERE owner = $1'}`,
    owner === null ? [] : [owner],
  );
  const row = rows[0];
  return { runs: Number(row?.runs ?? 0), bytes: Number(row?.bytes ?? 0) };
}

export function sharedRuns(sql: Sql, bounds: SharedRunBounds): SharedRuns {
  return {
    async share(owner, body) {
      const bytes = Buffer.byteLength(body, 'utf8');
      if (bytes > bounds.maxRunBytes) return { ok: false, refusal: { kind: 'too-big', bytes, limit: bounds.maxRunBytes } };
      return sql.transaction(async (tx): Promise<ShareResult> => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [SHARE_LOCK]);
        const mine = await usageOf(tx, owner);
        if (mine.runs + 1 > bounds.runsPerOwner) return { ok: false, refusal: { kind: 'owner-runs', limit: bounds.runsPerOwner } };
        if (mine.bytes + bytes > bounds.bytesPerOwner) return { ok: false, refusal: { kind: 'owner-bytes', bytes: mine.bytes, limit: bounds.bytesPerOwner } };
        const all = await usageOf(tx, null);
        if (all.bytes + bytes > bounds.totalBytes) return { ok: false, refusal: { kind: 'total-bytes' } };
        const id = newSharedRunId();
        await tx.query('INSERT INTO shared_runs (id, owner, bytes, body) VALUES ($1, $2, $3, $4)', [id, owner, bytes, body]);
        return { ok: true, id };
      });
    },
    async get(id) {
      const rows = await sql.query<RunRow>('SELECT id, owner, body, bytes, created_at FROM shared_runs WHERE id = $1', [id]);
      const row = rows[0];
      return row ? { id: row.id, owner: row.owner, body: row.body, bytes: Number(row.bytes), createdAt: row.created_at } : null;
    },
    async delete(id, owner) {
      const deleted = await sql.query<{ id: string }>('DELETE FROM shared_runs WHERE id = $1 AND owner = $2 RETURNING id', [id, owner]);
      if (deleted.length > 0) return 'deleted';
      const exists = await sql.query<{ id: string }>('SELECT id FROM shared_runs WHERE id = $1', [id]);
      return exists.length > 0 ? 'not-yours' : 'not-found';
    },
    usage: (owner) => usageOf(sql, owner),
    total: () => usageOf(sql, null),
  };
}

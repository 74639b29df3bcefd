/**
 * The store's behaviour, written once and run against each database it runs on: PGlite (store-pglite.test.ts) and
 * Debian's Postgres server (store-postgres.test.ts). `open` gives a connection to the same database each time it is
 * called, so reopening reads what an earlier connection wrote.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '@/server/store/migrations';
import { sharedRuns, type SharedRunBounds } from '@/server/store/shared-runs';
import type { Sql } from '@/server/store/sql';
import { sharedRunIdSchema } from '@/lib/shared-runs';

export const BOUNDS: SharedRunBounds = { maxRunBytes: 1_000, runsPerOwner: 3, bytesPerOwner: 2_000, totalBytes: 5_000 };

/** A run file's text of about `bytes` bytes (the store keeps any body the edge let through). */
export function runBody(bytes = 200, tag = 'x'): string {
  const head = `{"format":"lock-lab-run","version":1,"tag":"${tag}","history":[],"pad":"`;
  return head + 'p'.repeat(Math.max(0, bytes - head.length - 2)) + '"}';
}

export function storeSuite(name: string, open: () => Promise<Sql>, hookTimeout: number): void {
  describe(`the store on ${name}`, () => {
    let sql: Sql;
    let firstMigration: number[];

    beforeAll(async () => {
      sql = await open();
      firstMigration = await migrate(sql);
    }, hookTimeout);
    afterAll(async () => {
      await sql?.close();
    }, hookTimeout);
    beforeEach(async () => {
      await sql.query('DELETE FROM shared_runs');
    });

    const reopen = async () => {
      await sql.close();
      sql = await open();
    };

    it('applies every migration on a new database, once, and records each', async () => {
      expect(firstMigration).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await migrate(sql)).toEqual([]);
      await reopen();
      expect(await migrate(sql)).toEqual([]);
      const recorded = await sql.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(recorded).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    }, hookTimeout);

    it('refuses a migration list that does not count 1, 2, 3 in order, applying nothing', async () => {
      await expect(migrate(sql, [{ version: 2, name: 'skips one', sql: 'CREATE TABLE never_made (x int)' }])).rejects.toThrow(/must count 1, 2, 3/);
      expect(await sql.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'never_made'")).toEqual([]);
    });

    it('keeps a shared run across a reopen, byte for byte, under an unguessable id', async () => {
      const body = runBody(300, 'kept ✓ نعم');
      const shared = await sharedRuns(sql, BOUNDS).share('browser-a', body);
      if (!shared.ok) throw new Error(`refused: ${shared.refusal.kind}`);
      expect(sharedRunIdSchema.safeParse(shared.id).success).toBe(true);
      await reopen();
      const run = await sharedRuns(sql, BOUNDS).get(shared.id);
      expect(run).toMatchObject({ id: shared.id, owner: 'browser-a', body, bytes: Buffer.byteLength(body) });
      expect(run?.createdAt).toBeInstanceOf(Date);
    }, hookTimeout);

    it('gives every run its own id', async () => {
      const runs = sharedRuns(sql, { ...BOUNDS, runsPerOwner: 50, bytesPerOwner: 50_000, totalBytes: 50_000 });
      const ids = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const r = await runs.share('browser-a', runBody(50));
        if (r.ok) ids.add(r.id);
      }
      expect(ids.size).toBe(20);
    });

    it('refuses a run past the size bound, and changes nothing', async () => {
      const runs = sharedRuns(sql, BOUNDS);
      expect(await runs.share('browser-a', runBody(1_001))).toEqual({ ok: false, refusal: { kind: 'too-big', bytes: 1_001, limit: 1_000 } });
      expect(await runs.usage('browser-a')).toEqual({ runs: 0, bytes: 0 });
    });

    it("refuses a browser past its runs or its bytes, and changes nothing; another browser's share is its own", async () => {
      const runs = sharedRuns(sql, BOUNDS);
      for (let i = 0; i < 3; i++) expect((await runs.share('browser-a', runBody(100))).ok).toBe(true);
      expect(await runs.share('browser-a', runBody(100))).toEqual({ ok: false, refusal: { kind: 'owner-runs', limit: 3 } });
      expect(await runs.usage('browser-a')).toEqual({ runs: 3, bytes: 300 });
      expect((await runs.share('browser-b', runBody(900))).ok).toBe(true);
      expect((await runs.share('browser-b', runBody(900))).ok).toBe(true);
      expect(await runs.share('browser-b', runBody(900))).toEqual({ ok: false, refusal: { kind: 'owner-bytes', bytes: 1_800, limit: 2_000 } });
      expect(await runs.usage('browser-b')).toEqual({ runs: 2, bytes: 1_800 });
    });

    it('refuses any browser once the total is spent, and changes nothing', async () => {
      const runs = sharedRuns(sql, BOUNDS);
      for (const browser of ['b1', 'b2', 'b3', 'b4', 'b5']) expect((await runs.share(browser, runBody(950))).ok).toBe(true);
      expect(await runs.share('b6', runBody(300))).toEqual({ ok: false, refusal: { kind: 'total-bytes' } });
      expect(await runs.usage('b6')).toEqual({ runs: 0, bytes: 0 });
    });

    it('lets two shares at once pass a bound only together never: one of them is refused', async () => {
      const runs = sharedRuns(sql, { ...BOUNDS, runsPerOwner: 1 });
      const both = await Promise.all([runs.share('browser-a', runBody(100)), runs.share('browser-a', runBody(100))]);
      expect(both.filter((r) => r.ok)).toHaveLength(1);
      expect(await runs.usage('browser-a')).toEqual({ runs: 1, bytes: 100 });
    });

    it('deletes a run for its owner only: another browser changes nothing', async () => {
      const runs = sharedRuns(sql, BOUNDS);
      const shared = await runs.share('owner', runBody(100));
      if (!shared.ok) throw new Error('refused');
      expect(await runs.delete(shared.id, 'someone-else')).toBe('not-yours');
      expect(await runs.get(shared.id)).not.toBeNull();
      expect(await runs.delete(shared.id, 'owner')).toBe('deleted');
      expect(await runs.get(shared.id)).toBeNull();
      expect(await runs.delete(shared.id, 'owner')).toBe('not-found');
      expect(await runs.usage('owner')).toEqual({ runs: 0, bytes: 0 });
    });

    it('reads an unknown id as no run', async () => {
      expect(await sharedRuns(sql, BOUNDS).get('AAAAAAAAAAAAAAAAAAAAAA')).toBeNull();
    });
  });
}

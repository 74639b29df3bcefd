/**
 * The store's behaviour, written once and run against each database it runs on: PGlite (store-pglite.test.ts) and
 * Debian's Postgres server (store-postgres.test.ts). `open` gives a connection to the same database each time it is
 * called, so reopening reads what an earlier connection wrote.
 */
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '@/server/store/migrations';
import { sharedRuns, type SharedRunBounds } from '@/server/store/shared-runs';
import type { Sql } from '@/server/store/sql';
import { sharedRunIdSchema } from '@/lib/shared-runs';
import { DUMPED_TABLES, restoreDump, writeDump } from '@/server/store/dump';

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

    describe('backups (npm run backup / restore)', () => {
      const everything = () => sql.query<Record<string, unknown>>('SELECT id, owner, bytes, body, created_at FROM shared_runs ORDER BY id');
      /** The store's dump as lines of JSON. */
      async function dump(): Promise<string[]> {
        const out = new PassThrough();
        const text: Buffer[] = [];
        out.on('data', (c: Buffer) => text.push(c));
        await writeDump(sql, out, 'pglite');
        out.end();
        return Buffer.concat(text).toString('utf8').trimEnd().split('\n');
      }
      const restore = (lines: readonly string[], replace = false) => restoreDump(sql, Readable.from([lines.join('\n') + '\n']), { replace });
      async function shareThree(): Promise<void> {
        const runs = sharedRuns(sql, { ...BOUNDS, runsPerOwner: 10, bytesPerOwner: 10_000 });
        for (const [owner, tag] of [['browser-a', 'one'], ['browser-a', 'två ✓'], ['browser-b', 'ثلاثة']] as const)
          expect((await runs.share(owner, runBody(250, tag))).ok).toBe(true);
      }

      it('dumps every row and restores it into an empty store as it was: ids, owners, bodies byte for byte, times', async () => {
        await shareThree();
        const before = await everything();
        const lines = await dump();
        expect(lines).toHaveLength(1 + 3 + 1);
        expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'lock-lab-store-dump', version: 1, schema: MIGRATIONS.length });
        expect(JSON.parse(lines.at(-1)!)).toEqual({ end: true, rows: { shared_runs: 3 } });
        await sql.query('DELETE FROM shared_runs');
        expect(await restore(lines)).toEqual({ shared_runs: 3 });
        expect(await everything()).toEqual(before);
        // The restored runs count against their owners' bounds as before.
        const aBytes = before.filter((r) => r.owner === 'browser-a').reduce((n, r) => n + Number(r.bytes), 0);
        expect(await sharedRuns(sql, BOUNDS).usage('browser-a')).toEqual({ runs: 2, bytes: aBytes });
      });

      it('refuses a store that holds rows unless told to replace them, and then replaces them all', async () => {
        await shareThree();
        const lines = await dump();
        const before = await everything();
        await expect(restore(lines)).rejects.toThrow(/already holds 3 row\(s\) of shared_runs.*--replace/);
        expect(await everything()).toEqual(before);
        expect((await sharedRuns(sql, BOUNDS).share('browser-c', runBody(100))).ok).toBe(true);
        expect(await restore(lines, true)).toEqual({ shared_runs: 3 });
        expect(await everything()).toEqual(before);
      });

      it('restores nothing from a dump cut short, padded, miscounted, damaged, or from a newer Lock Lab', async () => {
        await shareThree();
        const lines = await dump();
        await sql.query('DELETE FROM shared_runs');
        const row = JSON.parse(lines[1]!) as { table: string; row: Record<string, unknown> };
        const bad: [string, string[], RegExp][] = [
          ['cut short', lines.slice(0, -1), /without its closing line/],
          ['a row lost', [lines[0]!, ...lines.slice(2)], /says it holds 3 row\(s\) of shared_runs but carries 2/],
          ['after its end', [...lines, lines[1]!], /goes on after its closing line/],
          ['not JSON', [lines[0]!, '{"table":', ...lines.slice(1)], /line 2 of the dump is not JSON/],
          ['a size that lies', [lines[0]!, JSON.stringify({ ...row, row: { ...row.row, bytes: 1 } }), ...lines.slice(2)], /not a valid shared_runs row.*UTF-8 size/],
          ['a column too many', [lines[0]!, JSON.stringify({ ...row, row: { ...row.row, admin: true } }), ...lines.slice(2)], /not a valid shared_runs row/],
          ['a table nobody has', [lines[0]!, JSON.stringify({ table: 'pg_authid', row: {} }), ...lines.slice(1)], /neither a row nor its closing line/],
          ['a newer schema', [JSON.stringify({ ...JSON.parse(lines[0]!), schema: MIGRATIONS.length + 1 }), ...lines.slice(1)], /newer Lock Lab/],
          ['not a dump', ['{"format":"lock-lab-run","version":1}', ...lines.slice(1)], /not a Lock Lab store dump/],
        ];
        for (const [what, text, why] of bad) {
          await expect(restore(text), what).rejects.toThrow(why);
          expect(await everything(), what).toEqual([]);
        }
        // A row that is its own duplicate fails in the database, inside the transaction: the first copy goes too.
        await expect(restore([lines[0]!, lines[1]!, lines[1]!, JSON.stringify({ end: true, rows: { shared_runs: 2 } })])).rejects.toThrow(/line 3 of the dump could not be restored/);
        expect(await everything()).toEqual([]);
      });

      it('holds every table of the schema, every column, so a new migration cannot slip out of the backups', async () => {
        const columns = await sql.query<{ table_name: string; column_name: string }>(
          `SELECT table_name, column_name FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position`,
        );
        const schema: Record<string, string[]> = {};
        for (const c of columns) (schema[c.table_name] ??= []).push(c.column_name);
        const dumped = Object.fromEntries(Object.entries(DUMPED_TABLES).map(([t, d]) => [t, [...d.columns]]));
        expect(dumped).toEqual(schema);
      });
    });
  });
}

/**
 * The store on Debian's Postgres server — what `DATABASE_URL` points at in docker-compose.yml — with the same suite
 * as PGlite (store-suite.ts), and a second server's migrations at once with the first's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '@/server/store/migrations';
import { openPgSql } from '@/server/store/pg-sql';
import { openStore } from '@/server/store/store';
import { sharedRuns } from '@/server/store/shared-runs';
import type { Sql } from '@/server/store/sql';
import { startPostgres, type TestPostgres } from '@/tests/helpers/postgres-server';
import { storeCli } from '@/tests/helpers/store-cli';
import { BOUNDS, runBody, storeSuite } from './store-suite';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
}, 30_000);

storeSuite('Debian Postgres', () => openPgSql(postgres.url), 30_000);

it('lets two servers starting at once on one Postgres apply the migrations once between them', async () => {
  const [a, b] = await Promise.all([openPgSql(postgres.url), openPgSql(postgres.url)]);
  try {
    await a.query('DROP TABLE IF EXISTS shared_runs, schema_migrations');
    const applied = await Promise.all([migrate(a), migrate(b)]);
    expect(applied.flat()).toEqual([1]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

it('opens as the lab server opens it, from a DATABASE_URL, naming the server without its password', async () => {
  const store = await openStore({ kind: 'postgres', url: postgres.url.replace('locklab@', 'locklab:hunter2@') }, BOUNDS);
  try {
    expect(store?.where).toMatch(/^Postgres at 127\.0\.0\.1:\d+\/postgres$/);
  } finally {
    await store?.close();
  }
});

describe('npm run backup / restore, as an operator runs them', () => {
  const cli = (args: string[], url: string) => storeCli(args, { DATABASE_URL: url });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-backup-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('moves the runs from one database to another, refuses to restore over rows, and replaces them when told', async () => {
    const source = await openPgSql(postgres.url);
    const admin = await openPgSql(postgres.url);
    let target: Sql | null = null;
    try {
      await migrate(source);
      await source.query('DELETE FROM shared_runs');
      const runs = sharedRuns(source, BOUNDS);
      for (const tag of ['a', 'b']) expect((await runs.share(`browser-${tag}`, runBody(300, tag))).ok).toBe(true);
      const rows = () => source.query('SELECT id, owner, bytes, body, created_at FROM shared_runs ORDER BY id');
      const file = path.join(dir, 'store.jsonl.gz');

      const backup = await cli(['backup', file], postgres.url);
      expect(backup.err).toBe('');
      expect(backup.code).toBe(0);
      expect(backup.out).toContain(`2 row(s) of shared_runs written to ${file}`);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.existsSync(`${file}.partial`)).toBe(false);

      await admin.query('DROP DATABASE IF EXISTS restored');
      await admin.query('CREATE DATABASE restored');
      const restoredUrl = postgres.url.replace(/\/postgres$/, '/restored');
      const restore = await cli(['restore', file], restoredUrl);
      expect(restore.err).toBe('');
      expect(restore.code).toBe(0);
      expect(restore.out).toContain('2 row(s) of shared_runs restored');
      target = await openPgSql(restoredUrl);
      expect(await target.query('SELECT id, owner, bytes, body, created_at FROM shared_runs ORDER BY id')).toEqual(await rows());

      const again = await cli(['restore', file], restoredUrl);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/^Lock Lab restore: the store already holds 2 row\(s\) of shared_runs: restore into an empty store, or pass --replace/);
      expect(again.err).not.toMatch(/\n\s+at /); // a sentence, not a stack
      await target.query("DELETE FROM shared_runs WHERE owner = 'browser-a'");
      expect((await cli(['restore', file, '--replace'], restoredUrl)).code).toBe(0);
      expect(await target.query('SELECT id, owner, bytes, body, created_at FROM shared_runs ORDER BY id')).toEqual(await rows());

      // Not a backup at all: refused in words, nothing changed.
      const notGzip = path.join(dir, 'notes.txt');
      fs.writeFileSync(notGzip, 'hello\n');
      const junk = await cli(['restore', notGzip, '--replace'], restoredUrl);
      expect(junk.code).toBe(1);
      expect(junk.err).toMatch(/is not a Lock Lab backup .*nothing was restored/);
      expect(await target.query('SELECT count(*)::int AS n FROM shared_runs')).toEqual([{ n: 2 }]);
      const usage = await cli(['restore'], restoredUrl);
      expect(usage.err).toMatch(/which backup should be restored\? usage: npm run backup/);
    } finally {
      await target?.close();
      await source.close();
      await admin.query('DROP DATABASE IF EXISTS restored').catch((error: unknown) => console.error('could not drop the test database', error));
      await admin.close();
    }
  }, 120_000); // six processes that each boot tsx: a minute on a busy two-core machine
});

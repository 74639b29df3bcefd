/**
 * The store on Debian's Postgres server — what `DATABASE_URL` points at in docker-compose.yml — with the same suite
 * as PGlite (store-suite.ts), and a second server's migrations at once with the first's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from '@/server/store/migrations';
import { openPgSql } from '@/server/store/pg-sql';
import { openStore } from '@/server/store/store';
import { startPostgres, type TestPostgres } from '@/tests/helpers/postgres-server';
import { BOUNDS, storeSuite } from './store-suite';

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

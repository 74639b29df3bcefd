/**
 * The embedded store: PGlite (Postgres compiled to WebAssembly, no native addon, no server to run) in a folder of
 * this machine. Its queries run one at a time inside the process; a transaction holds the database for its length.
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { claimDataDir } from './data-dir';
import type { Sql, SqlQuery, SqlValue } from './sql';

export async function openPgliteSql(dataDir: string): Promise<Sql> {
  const release = claimDataDir(dataDir);
  let db: PGlite;
  try {
    // A folder of its own below the data folder: the lock file (and later, backups) sit beside it, not in Postgres's files.
    db = await PGlite.create(path.join(dataDir, 'pglite'));
  } catch (error) {
    release();
    throw error;
  }
  const on = (q: Pick<PGlite, 'query'>): SqlQuery => ({
    query: async <Row extends object>(text: string, params: readonly SqlValue[] = []) => (await q.query<Row>(text, [...params])).rows,
  });
  return {
    ...on(db),
    transaction: (work) => db.transaction((tx) => work(on(tx))),
    close: async () => {
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}

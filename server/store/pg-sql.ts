/**
 * A Postgres server (DATABASE_URL): what every lab server behind one proxy shares (docker-compose.yml). A small
 * pool: the store's queries are short, and a transaction takes a connection of its own for its length.
 */
import pg from 'pg';
import type { Sql, SqlQuery, SqlValue } from './sql';

export async function openPgSql(url: string): Promise<Sql> {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000 });
  // An idle connection the server dropped is reported here; without a listener the process would exit on it.
  pool.on('error', (error) => console.error('[store] a Postgres connection failed while idle:', error.message));
  try {
    // Fails now (a wrong URL, a server not up) rather than at a learner's first share.
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    throw error;
  }
  const on = (client: Pick<pg.Pool, 'query'>): SqlQuery => ({
    query: async <Row extends object>(text: string, params: readonly SqlValue[] = []) => (await client.query<Row & pg.QueryResultRow>(text, [...params])).rows,
  });
  return {
    ...on(pool),
    transaction: async (work) => {
      const client = await pool.connect();
      // A connection whose rollback failed is in an unknown state: it is dropped, not handed to the next query.
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const value = await work(on(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: unknown) => {
          broken = rollback instanceof Error ? rollback : new Error(String(rollback));
          console.error('[store] rollback failed; the connection is dropped:', broken.message);
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}

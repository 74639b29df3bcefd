/**
 * The store's latency for operators: every query and every whole transaction of a database, observed into
 * `locklab_store_query_seconds` (/metrics). Wrapped once where the store opens, so no query can be left out.
 */
import { storeQuerySeconds } from '../ops/metrics';
import type { Sql, SqlQuery } from './sql';

export function timedSql(sql: Sql, store: 'pglite' | 'postgres'): Sql {
  const time = async <T>(kind: 'query' | 'transaction', work: () => Promise<T>): Promise<T> => {
    const end = storeQuerySeconds.startTimer({ store, kind });
    try {
      return await work();
    } finally {
      end();
    }
  };
  const timedQuery = (q: SqlQuery): SqlQuery['query'] => (text, params) => time('query', () => q.query(text, params));
  return {
    query: timedQuery(sql),
    transaction: (work) => time('transaction', () => sql.transaction((tx) => work({ query: timedQuery(tx) }))),
    close: () => sql.close(),
  };
}

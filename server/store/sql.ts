/**
 * The one thing the store needs from a database: parameterised queries and
 * transactions. PGlite (pglite-sql.ts) and a Postgres server (pg-sql.ts) both
 * give it, so the schema, the migrations and every query are written once.
 */
export type SqlValue = string | number | boolean | null | Date;

export interface Sql {
  /** Rows of a parameterised statement ($1, $2, …); never interpolate values into `text`. */
  query<Row extends object>(text: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws (the error is rethrown). */
  transaction<T>(work: (tx: SqlQuery) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What a transaction's body may do: queries only (no nesting, no close). */
export type SqlQuery = Pick<Sql, 'query'>;

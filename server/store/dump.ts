/**
 * Backups of the store: one logical dump format for PGlite and a Postgres server alike, so a backup taken from the
 * embedded store restores into Postgres (the way a lab that grew moves to docker-compose) and back. A physical copy
 * (PGlite's data folder, pg_dump's archive) would tie a backup to the database it came from.
 *
 * The file is gzipped JSON lines:
 *   {"format":"lock-lab-store-dump","version":1,"schema":1,"createdAt":"…","from":"pglite"}   the header
 *   {"table":"shared_runs","row":{…}}                                                          one line per row
 *   {"end":true,"rows":{"shared_runs":12}}                                                     the trailer
 * A file without its trailer, or whose counts disagree with its rows, was cut short: it restores nothing.
 *
 * What a dump holds is DUMPED_TABLES, one entry per table of the schema; a test holds the list to the schema, so a
 * table a new migration adds cannot slip out of the backups unnoticed.
 */
import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { z } from 'zod';
import { sharedRunIdSchema } from '@/lib/shared-runs';
import { MIGRATIONS, migrate } from './migrations';
import type { Sql, SqlQuery, SqlValue } from './sql';

export const DUMP_FORMAT = 'lock-lab-store-dump';
export const DUMP_VERSION = 1;

/** The schema version this code writes and reads: the last migration. */
const SCHEMA = MIGRATIONS.length;

/** A dump holds at most this much of the table's rows in memory at once while it is written (a shared run is up to 20 MB). */
const BATCH_BYTES = 32 * 2 ** 20;

interface DumpedTable<Row> {
  /** Columns in the order they are written and inserted. */
  columns: readonly (keyof Row & string)[];
  /** The primary key: batches are read in its order. */
  key: keyof Row & string;
  /** A row's size, to batch reads by bytes (a cheap column, read before the rows). */
  sizeColumn: keyof Row & string;
  /** A row as the dump carries it, checked before it is inserted. */
  row: z.ZodType<Row>;
}

const sharedRunRow = z
  .object({
    id: sharedRunIdSchema,
    owner: z.string().min(1).max(200),
    bytes: z.number().int().positive(),
    body: z.string().min(1),
    created_at: z.string().datetime({ offset: true }),
  })
  .strict()
  .refine((r) => Buffer.byteLength(r.body) === r.bytes, { message: 'bytes is not the UTF-8 size of body' });

export const DUMPED_TABLES = {
  shared_runs: {
    columns: ['id', 'owner', 'bytes', 'body', 'created_at'],
    key: 'id',
    sizeColumn: 'bytes',
    row: sharedRunRow,
  } satisfies DumpedTable<z.infer<typeof sharedRunRow>>,
} as const;

export type DumpedTableName = keyof typeof DUMPED_TABLES;
const TABLE_NAMES = Object.keys(DUMPED_TABLES) as DumpedTableName[];

const headerSchema = z.object({
  format: z.literal(DUMP_FORMAT),
  version: z.literal(DUMP_VERSION),
  schema: z.number().int().positive(),
  createdAt: z.string(),
  from: z.enum(['pglite', 'postgres']),
});
const rowLineSchema = z.object({ table: z.enum(TABLE_NAMES as [DumpedTableName, ...DumpedTableName[]]), row: z.record(z.string(), z.unknown()) }).strict();
const trailerSchema = z.object({ end: z.literal(true), rows: z.record(z.string(), z.number().int().nonnegative()) }).strict();

export type DumpCounts = Record<DumpedTableName, number>;

/** A dump that cannot be restored, and why, in one sentence; the store is left as it was. */
export class DumpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DumpError';
  }
}

const zeroCounts = (): DumpCounts => Object.fromEntries(TABLE_NAMES.map((t) => [t, 0])) as DumpCounts;

/** Writes a line and waits when the stream asks to (a 2 GB store is not held in memory). */
async function writeLine(out: Writable, value: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
}

/** A value as JSON carries it: timestamps as ISO strings (they come back as Date from both drivers). */
function plain(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * Writes the whole store to `out` as one consistent snapshot (a repeatable-read transaction: a share that lands
 * meanwhile is either wholly in the dump or not at all). Does not end `out`. Returns the rows written per table.
 */
export async function writeDump(sql: Sql, out: Writable, from: 'pglite' | 'postgres'): Promise<DumpCounts> {
  const counts = zeroCounts();
  await sql.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const schema = await schemaVersion(tx);
    if (schema !== SCHEMA) throw new DumpError(`the store's schema is at version ${schema} and this Lock Lab's at ${SCHEMA}: start the lab server once to bring it up to date, then back it up`);
    await writeLine(out, { format: DUMP_FORMAT, version: DUMP_VERSION, schema, createdAt: new Date().toISOString(), from });
    for (const name of TABLE_NAMES) {
      const table: DumpedTable<Record<string, unknown>> = DUMPED_TABLES[name];
      const sizes = await tx.query<{ key: string; size: number }>(`SELECT ${table.key} AS key, ${table.sizeColumn} AS size FROM ${name} ORDER BY ${table.key}`);
      for (const batch of batchesOf(sizes)) {
        // The batch's key range, in the order the keys were read: the snapshot holds the same rows in it.
        const rows = await tx.query<Record<string, unknown>>(
          `SELECT ${table.columns.join(', ')} FROM ${name} WHERE ${table.key} BETWEEN $1 AND $2 ORDER BY ${table.key}`,
          [batch[0]!, batch[batch.length - 1]!],
        );
        for (const row of rows) {
          await writeLine(out, { table: name, row: Object.fromEntries(table.columns.map((c) => [c, plain(row[c])])) });
          counts[name]++;
        }
      }
    }
    await writeLine(out, { end: true, rows: counts });
  });
  return counts;
}

/** Keys in batches of at most BATCH_BYTES of rows (a row bigger than that is a batch of its own). */
function batchesOf(sizes: readonly { key: string; size: number }[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const { key, size } of sizes) {
    if (current.length > 0 && bytes + size > BATCH_BYTES) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(key);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

async function schemaVersion(q: SqlQuery): Promise<number> {
  const [row] = await q.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return row?.version ?? 0;
}

export interface RestoreOptions {
  /** Empty the store's tables first (in the same transaction). Without it a store that holds anything is refused. */
  replace?: boolean;
}

/**
 * Restores a dump read from `input` (the gunzipped lines) into the store, all or nothing: one transaction, so a
 * dump that turns out bad on its last line leaves the store exactly as it was. Migrations are applied first.
 */
export async function restoreDump(sql: Sql, input: Readable, options: RestoreOptions = {}): Promise<DumpCounts> {
  const lines = linesOf(input);
  let lineNo = 0;
  const next = async (): Promise<unknown> => {
    const { value, done } = await lines.next();
    if (done) return undefined;
    lineNo++;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw new DumpError(`line ${lineNo} of the dump is not JSON: the file is damaged`);
    }
  };
  const header = headerSchema.safeParse(await next());
  if (!header.success) throw new DumpError(`this is not a Lock Lab store dump (${DUMP_FORMAT} version ${DUMP_VERSION}): its first line does not say so`);
  if (header.data.schema > SCHEMA) throw new DumpError(`the dump was made by a newer Lock Lab (schema ${header.data.schema}; this one knows up to ${SCHEMA}): restore it with that version`);
  // Only now: a file that is not a dump leaves even a new store untouched.
  await migrate(sql);
  return sql.transaction(async (tx) => {
    const held = await Promise.all(TABLE_NAMES.map(async (t) => [t, Number((await tx.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${t}`))[0]?.n ?? 0)] as const));
    const nonEmpty = held.filter(([, n]) => n > 0);
    if (nonEmpty.length > 0 && !options.replace)
      throw new DumpError(`the store already holds ${nonEmpty.map(([t, n]) => `${n} row(s) of ${t}`).join(', ')}: restore into an empty store, or pass --replace to delete them first`);
    for (const t of TABLE_NAMES) await tx.query(`DELETE FROM ${t}`);
    const counts = zeroCounts();
    for (;;) {
      const line = await next();
      if (line === undefined) throw new DumpError(`the dump ends after line ${lineNo} without its closing line: it was cut short, so nothing was restored`);
      const trailer = trailerSchema.safeParse(line);
      if (trailer.success) {
        for (const t of TABLE_NAMES)
          if ((trailer.data.rows[t] ?? 0) !== counts[t])
            throw new DumpError(`the dump says it holds ${trailer.data.rows[t] ?? 0} row(s) of ${t} but carries ${counts[t]}: nothing was restored`);
        if ((await next()) !== undefined) throw new DumpError(`the dump goes on after its closing line (line ${lineNo}): nothing was restored`);
        return counts;
      }
      const parsed = rowLineSchema.safeParse(line);
      if (!parsed.success) throw new DumpError(`line ${lineNo} of the dump is neither a row nor its closing line: nothing was restored`);
      const table: DumpedTable<Record<string, unknown>> = DUMPED_TABLES[parsed.data.table];
      const row = table.row.safeParse(parsed.data.row);
      if (!row.success) throw new DumpError(`line ${lineNo} of the dump is not a valid ${parsed.data.table} row (${row.error.issues[0]?.path.join('.') || 'row'}: ${row.error.issues[0]?.message}): nothing was restored`);
      const values = table.columns.map((c) => row.data[c] as SqlValue);
      const placeholders = table.columns.map((_, i) => `$${i + 1}`).join(', ');
      try {
        await tx.query(`INSERT INTO ${parsed.data.table} (${table.columns.join(', ')}) VALUES (${placeholders})`, values);
      } catch (error) {
        throw new DumpError(`line ${lineNo} of the dump could not be restored (${(error as Error).message}): nothing was restored`);
      }
      counts[parsed.data.table]++;
    }
  });
}

/**
 * The input's lines, one at a time. A stream that fails (a file that is not gzip, a disk error) fails the reading,
 * and with it the restore's transaction, instead of leaving it waiting for lines that never come.
 */
async function* linesOf(input: Readable): AsyncGenerator<string> {
  let rest = '';
  input.setEncoding('utf8');
  for await (const chunk of input as AsyncIterable<string>) {
    rest += chunk;
    let at: number;
    while ((at = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, at);
      rest = rest.slice(at + 1);
    }
  }
  if (rest.length > 0) yield rest;
}

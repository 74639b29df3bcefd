/**
 * `npm run backup [-- <file>]` and `npm run restore -- <file> [--replace]`: the operator's way to keep the store and
 * bring it back (dump.ts has the format). They open the store the lab server would open — DATABASE_URL's Postgres,
 * else PGlite in LOCKLAB_DATA_DIR — so a backup needs no settings the server does not already have.
 *
 * PGlite is one process's database: while a lab server has the data folder open, both commands stop with a
 * sentence that says so. A Postgres server can be backed up and restored while lab servers use it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { configFromEnv } from '../config';
import { openPgSql } from './pg-sql';
import { openPgliteSql } from './pglite-sql';
import { describeUrl } from './store';
import type { Sql } from './sql';
import { DataDirInUseError } from './data-dir';
import { DumpError, restoreDump, writeDump, type DumpCounts } from './dump';

const USAGE = 'usage: npm run backup [-- <file>]   ·   npm run restore -- <file> [--replace]';

function said(counts: DumpCounts): string {
  return Object.entries(counts)
    .map(([table, n]) => `${n} row(s) of ${table}`)
    .join(', ');
}

async function open(): Promise<{ sql: Sql; from: 'pglite' | 'postgres'; where: string }> {
  const store = configFromEnv().store;
  if (store.kind === 'none') throw new DumpError('LOCKLAB_STORE=0 says there is no store to back up or restore');
  if (store.kind === 'postgres') return { sql: await openPgSql(store.url), from: 'postgres', where: describeUrl(store.url) };
  return { sql: await openPgliteSql(store.dataDir), from: 'pglite', where: `PGlite in ${store.dataDir}` };
}

/** The default name: where the command runs, stamped to the second, never over an earlier backup. */
function defaultFile(): string {
  return path.resolve(`locklab-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl.gz`);
}

async function backup(file: string): Promise<void> {
  const { sql, from, where } = await open();
  // Written beside the target and renamed when complete: a backup that failed half way never looks like one.
  const partial = `${file}.partial`;
  try {
    const gzip = zlib.createGzip();
    const written = pipeline(gzip, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    const counts = await writeDump(sql, gzip, from);
    gzip.end();
    await written;
    fs.renameSync(partial, file);
    console.log(`[backup] ${where}: ${said(counts)} written to ${file}`);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    await sql.close();
  }
}

async function restore(file: string, replace: boolean): Promise<void> {
  if (!fs.existsSync(file)) throw new DumpError(`there is no file ${file}`);
  const { sql, where } = await open();
  try {
    const input = zlib.createGunzip();
    // A read error (a folder, a file gone) fails the restore through the gunzip stream it feeds.
    fs.createReadStream(file)
      .on('error', (error) => input.destroy(error))
      .pipe(input);
    let counts: DumpCounts;
    try {
      counts = await restoreDump(sql, input, { replace });
    } catch (error) {
      // zlib's own words ("incorrect header check") say less than this.
      if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) throw new DumpError(`${file} is not a Lock Lab backup (${(error as Error).message}): nothing was restored`);
      throw error;
    }
    console.log(`[restore] ${where}: ${said(counts)} restored from ${file}`);
  } finally {
    await sql.close();
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  const files = rest.filter((a) => !a.startsWith('--'));
  const flags = rest.filter((a) => a.startsWith('--'));
  const unknown = flags.filter((f) => f !== '--replace' || command !== 'restore');
  if (unknown.length > 0 || files.length > 1) throw new DumpError(`${unknown.length ? `unknown option ${unknown[0]}` : 'one file at a time'}. ${USAGE}`);
  if (command === 'backup') return backup(files[0] ? path.resolve(files[0]) : defaultFile());
  if (command === 'restore') {
    if (!files[0]) throw new DumpError(`which backup should be restored? ${USAGE}`);
    return restore(path.resolve(files[0]), flags.includes('--replace'));
  }
  throw new DumpError(USAGE);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    // One sentence for the operator (a refusal, a folder in use, a server that is not up); a bug keeps its stack.
    const known = error instanceof DumpError || error instanceof DataDirInUseError || (error instanceof Error && /ECONNREFUSED|password authentication|does not exist/i.test(error.message));
    console.error(`Lock Lab ${process.argv[2] ?? 'backup'}: ${known ? (error as Error).message : (error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);

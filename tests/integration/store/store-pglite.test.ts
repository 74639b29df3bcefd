/**
 * The store on PGlite, the default: a data folder of the test's own (never the user's), opened, closed and opened
 * again as a server restart does; plus what only the embedded store has (one server per folder) and how a store that
 * cannot open is said.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteSql } from '@/server/store/pglite-sql';
import { claimDataDir, DataDirInUseError, defaultDataDir } from '@/server/store/data-dir';
import { openStore, StoreOpenError } from '@/server/store/store';
import { migrate } from '@/server/store/migrations';
import { openPgSql } from '@/server/store/pg-sql';
import { sharedRuns } from '@/server/store/shared-runs';
import type { Sql } from '@/server/store/sql';
import { startPostgres } from '@/tests/helpers/postgres-server';
import { storeCli } from '@/tests/helpers/store-cli';
import { BOUNDS, runBody, storeSuite } from './store-suite';

// A new folder costs PGlite's initdb: tens of seconds on a busy two-core machine.
const PGLITE_TIMEOUT = 180_000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-store-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

storeSuite('PGlite', () => openPgliteSql(dataDir), PGLITE_TIMEOUT);

describe('the data folder', () => {
  it('is LOCKLAB_DATA_DIR, else under XDG_DATA_HOME, else ~/.local/share — never the checkout', () => {
    expect(defaultDataDir({ LOCKLAB_DATA_DIR: '/srv/locklab' })).toBe('/srv/locklab');
    expect(defaultDataDir({ XDG_DATA_HOME: '/home/u/.data' })).toBe('/home/u/.data/locklab');
    expect(defaultDataDir({})).toBe(path.join(os.homedir(), '.local', 'share', 'locklab'));
  });

  it('serves one server at a time: a live holder refuses, a dead one is taken over', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-claim-'));
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const pid = holder.pid ?? 0;
      fs.writeFileSync(path.join(dir, 'server.lock'), String(pid));
      expect(() => claimDataDir(dir)).toThrow(DataDirInUseError);
      expect(() => claimDataDir(dir)).toThrow(`another Lock Lab server (PID ${pid}) is using the data folder ${dir}`);
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
      const release = claimDataDir(dir);
      expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
      // A second server in this same process is refused too (its PID is ours, but the folder is held).
      expect(() => claimDataDir(dir)).toThrow(`another Lock Lab server (PID ${process.pid})`);
      release();
      expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
    } finally {
      if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a store that cannot open', () => {
  it('is said in one sentence naming the store and the reason', async () => {
    const error = await openStore({ kind: 'postgres', url: 'postgres://locklab:secret@127.0.0.1:1/locklab' }, BOUNDS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    const message = (error as Error).message;
    expect(message).toMatch(/^its store \(Postgres at 127\.0\.0\.1:1\/locklab\) cannot be opened: .*ECONNREFUSED/);
    expect(message).not.toContain('secret');
    expect(message).not.toContain('\n');
  });

  it('is none at all with LOCKLAB_STORE=0', async () => {
    expect(await openStore({ kind: 'none' }, BOUNDS)).toBeNull();
  });
});

describe('npm run backup / restore on the embedded store', () => {
  it('stops with a sentence while a lab server has the data folder open, and leaves it as it was', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-held-'));
    const release = claimDataDir(dir);
    try {
      for (const args of [['backup', path.join(dir, 'b.jsonl.gz')], ['restore', __filename]]) {
        const held = await storeCli(args, { LOCKLAB_DATA_DIR: dir });
        expect(held.code).toBe(1);
        expect(held.err.trim()).toBe(`Lock Lab ${args[0]}: another Lock Lab server (PID ${process.pid}) is using the data folder ${dir}; give this one its own LOCKLAB_DATA_DIR, or a DATABASE_URL`);
      }
      expect(fs.readdirSync(dir)).toEqual(['server.lock']);
    } finally {
      release();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('backs up PGlite and restores into a Postgres server, the way a lab that grew moves to docker-compose', async () => {
    const sql = await openPgliteSql(dataDir);
    let target: Sql | null = null;
    const postgres = await startPostgres();
    const file = path.join(dataDir, 'moved.jsonl.gz');
    try {
      await migrate(sql);
      await sql.query('DELETE FROM shared_runs');
      const runs = sharedRuns(sql, { ...BOUNDS, runsPerOwner: 10, bytesPerOwner: 10_000 });
      for (const tag of ['één', 'ثنين']) expect((await runs.share('browser-p', runBody(300, tag))).ok).toBe(true);
      const rows = await sql.query('SELECT id, owner, bytes, body, created_at FROM shared_runs ORDER BY id');
      await sql.close(); // the folder is one process's: the CLI takes it as a stopped server leaves it

      const backup = await storeCli(['backup', file], { LOCKLAB_DATA_DIR: dataDir });
      expect(backup.err).toBe('');
      expect(backup.out).toContain(`[backup] PGlite in ${dataDir}: 2 row(s) of shared_runs written to ${file}`);
      const restore = await storeCli(['restore', file], { DATABASE_URL: postgres.url });
      expect(restore.err).toBe('');
      expect(restore.out).toContain('2 row(s) of shared_runs restored');
      target = await openPgSql(postgres.url);
      expect(await target.query('SELECT id, owner, bytes, body, created_at FROM shared_runs ORDER BY id')).toEqual(rows);
    } finally {
      await target?.close();
      await postgres.stop();
      fs.rmSync(file, { force: true });
    }
  }, PGLITE_TIMEOUT);
});

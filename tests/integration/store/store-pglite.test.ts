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
import { BOUNDS, storeSuite } from './store-suite';

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

/**
 * A throwaway Debian Postgres server for the store's tests (tests/integration/store/store-postgres.test.ts): initdb in
 * a temporary folder, `postgres` on a free loopback port with no Unix socket outside that folder, stopped by its PID.
 * Postgres refuses to run as root, so under root both run as `nobody` (setpriv), and they die with the test process
 * (--pdeathsig). Missing binaries are said, not skipped: `apt-get install postgresql` provides them.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface TestPostgres {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const NOBODY = 65_534;

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => path.join(root, v, 'bin')).find((d) => fs.existsSync(path.join(d, 'postgres')));
  if (!dir) throw new Error("Debian's Postgres server is not installed (no /usr/lib/postgresql/<version>/bin/postgres): run `apt-get install -y postgresql`");
  return dir;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** The command as this process's user, or as nobody under root; dying with this process either way. */
function asUser(command: string, args: string[]): [string, string[]] {
  const root = process.getuid?.() === 0;
  return ['setpriv', [...(root ? [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : []), '--pdeathsig', 'SIGKILL', command, ...args]];
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  // Under root, in /tmp itself: the test run's own TMPDIR is 0700, which nobody cannot pass through.
  const dir = fs.mkdtempSync(path.join(root ? '/tmp' : os.tmpdir(), 'locklab-postgres-'));
  if (root) fs.chownSync(dir, NOBODY, NOBODY);
  const data = path.join(dir, 'data');
  const [initCmd, initArgs] = asUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'locklab', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
  execFileSync(initCmd, initArgs, { stdio: 'pipe', cwd: dir });
  const port = await freePort();
  const [cmd, args] = asUser(path.join(bin, 'postgres'), [
    '-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir,
    // A test database: nothing to lose, so no waiting for the disk.
    '-F', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off', '-c', 'max_connections=20', '-c', 'shared_buffers=16MB',
  ]);
  const child: ChildProcess = spawn(cmd, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('database system is ready to accept connections')) {
        child.stderr?.off('data', onData);
        // Keep draining, so a chatty server never blocks on a full pipe.
        child.stderr?.resume();
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`postgres on ${port} exited with ${code}: ${log}`)));
  });
  const pid = child.pid ?? 0;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `postgres://locklab@127.0.0.1:${port}/postgres`,
    pid,
    async stop() {
      // SIGINT: Postgres's fast shutdown (ends the sessions, then exits). setpriv exec'd it, so the PID is postgres's.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A sandbox host that dies (issue 29): SIGKILLed by its pid mid-run, as the
 * kernel's OOM killer would, it ends only its own runs — each with a clear
 * sentence — while a run in the other host goes on and the web server's
 * process is untouched; a new host is started, and the next runs succeed on it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { LEARNER, startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram, type RecordedRun } from '../helpers/sandbox-run';

/** A client that waits on Redis until node 1 says stop. */
const WAITING = `
import Redis from 'ioredis';
import lab from 'lab';
const r = new Redis({ host: 'redis-1' });
while ((await r.get('crash:stop')) !== 'yes') await lab.sleep(20);
console.log('told to stop');
r.disconnect();
`;
const QUICK = `import lab from 'lab';\nconsole.log('ran ' + lab.client);`;

let cluster: TestRedisCluster;
let pool: SandboxPool;

beforeAll(async () => {
  cluster = await startRedisServers(1);
  pool = createSandboxPool({ warmWorkers: 0, hosts: 2 });
  await pool.start();
});

afterAll(async () => {
  await pool?.close();
  await cluster?.stop();
});

const started = (run: RecordedRun) => run.waitFor((e) => e.type === 'client' && e.event === 'start');

describe('a sandbox host killed mid-run', () => {
  it('ends its runs in words, spares the other host\'s, and is started again for the next runs', async () => {
    const hostsBefore = pool.hostPids;
    expect(hostsBefore).toHaveLength(2);
    const victim = startProgram(pool, cluster, WAITING, { clients: 2 });
    const bystander = startProgram(pool, cluster, WAITING, { clients: 1 });
    await Promise.all([started(victim), started(bystander)]);
    const killedPid = victim.handle.thread()!.pid;
    expect(bystander.handle.thread()!.pid).not.toBe(killedPid);

    process.kill(killedPid, 'SIGKILL');
    const outcome = await victim.done;
    expect(outcome.status).toBe('killed');
    expect(outcome.errorWords?.key).toBe('runNotes.hostLost');
    expect(outcome.error).toContain('killed by SIGKILL');
    // Said in the run's console too, where the learner reads it.
    expect(victim.events.some((e) => e.type === 'console' && e.client === 0 && e.words?.key === 'runNotes.hostLost')).toBe(true);

    // The other host's run is untouched: it goes on and ends when told.
    const control = new Redis({ port: cluster.nodes[0]!.port, ...LEARNER });
    await control.set('crash:stop', 'yes');
    control.disconnect();
    const spared = await bystander.done;
    expect(spared.status).toBe('completed');
    expect(bystander.console(1)).toContain('told to stop');

    // A new host in the killed one's place.
    await expect.poll(() => pool.hostPids.filter((pid) => !hostsBefore.includes(pid)).length, { timeout: 20_000, interval: 50 }).toBe(1);
    const restarted = pool.hostPids.find((pid) => !hostsBefore.includes(pid))!;
    // Two runs at once go to the two hosts: the new one serves its run as the old would have.
    const next = [startProgram(pool, cluster, QUICK, { clients: 2 }), startProgram(pool, cluster, QUICK, { clients: 2 })];
    await Promise.all(next.map(started));
    expect(next.map((r) => r.handle.thread()!.pid)).toContain(restarted);
    for (const run of next) {
      expect((await run.done).status).toBe('completed');
      expect(run.console().sort()).toEqual(['ran 1', 'ran 2']);
    }
  }, 60_000);
});

describe('a sandbox host that cannot start', () => {
  it('stops the server at its start with one sentence', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-nohost-'));
    try {
      // setpriv that runs nothing: every host exits at once (the link process starts without it; no lab is started).
      const server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
        cwd: path.resolve(import.meta.dirname, '../..'),
        env: { ...process.env, PORT: '0', LOCKLAB_WEB: '0', LOCKLAB_WARM_LABS: '0', LOCKLAB_SETPRIV: '/bin/false', TMPDIR: root, LOCKLAB_RUN_DIR: path.join(root, 'run') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => server.once('exit', resolve));
      expect(code).toBe(1);
      // The node host starts through setpriv too, before the sandbox hosts: whichever is told first, one sentence names it.
      expect(output).toMatch(/Lock Lab cannot start: (Sandbox host \d|The node host) \(.*\) could not start: it exited with code 1/);
      expect(output.match(/Lock Lab cannot start/g)).toHaveLength(1);
      expect(output).not.toMatch(/serving on/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

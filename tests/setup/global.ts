/**
 * One temporary folder for the whole test run (every fixture's mkdtemp lands
 * in it through TMPDIR, which the test workers inherit), and a last sweep at
 * the end: any redis-server still running from inside it — a test that timed
 * out before its cleanup ran — is killed by PID, and the folder removed.
 * Only processes started in this run's folder are touched. The lab servers
 * tests start run without a store (LOCKLAB_STORE=0) unless a test gives one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function redisServersUnder(root: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.startsWith('redis-server')) continue;
      if (fs.readlinkSync(`/proc/${entry}/cwd`).startsWith(root + path.sep)) pids.push(Number(entry));
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return pids;
}

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-tests-'));
  process.env.TMPDIR = root;
  // The lab servers tests start keep nothing across restarts (PGlite takes seconds and hundreds of MB to start, and
  // one data folder serves one server at a time): the store's own tests open theirs in a temporary folder.
  process.env.LOCKLAB_STORE ??= '0';
  return () => {
    const left = redisServersUnder(root);
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    if (left.length) console.warn(`[tests] killed ${left.length} redis-server(s) a test left behind: ${left.join(', ')}`);
    fs.rmSync(root, { recursive: true, force: true });
  };
}

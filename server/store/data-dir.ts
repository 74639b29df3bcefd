/**
 * Where the embedded store keeps its data: LOCKLAB_DATA_DIR, else the user's
 * data directory ($XDG_DATA_HOME/locklab, ~/.local/share/locklab) — never the
 * checkout, so a `git clean` or a fresh clone does not take the learners'
 * shared runs with it. One server at a time uses a folder: PGlite is one
 * process's database, and a second server on the same files would corrupt them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function defaultDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.LOCKLAB_DATA_DIR) return path.resolve(env.LOCKLAB_DATA_DIR);
  const base = env.XDG_DATA_HOME ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'locklab');
}

const LOCK_FILE = 'server.lock';
/** Folders this process holds: a second server in the same process (a test) is refused as another process would be. */
const held = new Set<string>();

/** A live process's PID (EPERM: alive, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`another Lock Lab server (PID ${pid}) is using the data folder ${dir}; give this one its own LOCKLAB_DATA_DIR, or a DATABASE_URL`);
    this.name = 'DataDirInUseError';
  }
}

/**
 * Claims `dir` for this process (a lock file holding its PID) and returns the release. A lock whose process is gone
 * (a killed server) is taken over; a live one refuses.
 */
export function claimDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, LOCK_FILE);
  if (held.has(file)) throw new DataDirInUseError(dir, process.pid);
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DataDirInUseError(dir, pid);
      // Left by a server that is gone (our PID too, then: it was reused): nobody has the database open.
      fs.rmSync(file, { force: true });
    }
  }
  held.add(file);
  return () => {
    held.delete(file);
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  };
}

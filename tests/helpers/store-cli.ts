/**
 * `npm run backup` / `npm run restore` as an operator runs them: the CLI in a process of its own, with the store
 * settings in its environment (DATABASE_URL or LOCKLAB_DATA_DIR), its exit code and what it printed.
 */
import { spawn } from 'node:child_process';

export interface CliOutcome {
  code: number | null;
  out: string;
  err: string;
}

export function storeCli(args: readonly string[], env: { DATABASE_URL?: string; LOCKLAB_DATA_DIR?: string }): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const { DATABASE_URL: _url, LOCKLAB_DATA_DIR: _dir, LOCKLAB_STORE: _store, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/store/backup-cli.ts', ...args], {
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

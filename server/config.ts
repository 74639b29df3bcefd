/** Server settings from the environment, read once, with the defaults the README lists. */
import { defaultRunRoot } from './cluster/run-dir';

export interface ServerConfig {
  port: number;
  host: string;
  dev: boolean;
  /** Serve the Next.js pages (off for engine-only tests and benchmarks). */
  web: boolean;
  /** Run learner code (off only for engine benchmarks that do not need worker threads). */
  sandbox: boolean;
  maxLabs: number;
  labIdleMs: number;
  /** Default-topology labs kept started in reserve (LOCKLAB_WARM_LABS). */
  warmLabs: number;
  runRoot: string;
  /** Extra browser origins allowed to open a socket (comma-separated in LOCKLAB_ALLOWED_ORIGINS). */
  allowedOrigins: string[];
}

function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  return value;
}

export function configFromEnv(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    port: intFromEnv('PORT', 3000, 0),
    host: process.env.HOST || '127.0.0.1',
    dev: process.env.NODE_ENV !== 'production',
    web: process.env.LOCKLAB_WEB !== '0',
    sandbox: process.env.LOCKLAB_SANDBOX !== '0',
    maxLabs: intFromEnv('LOCKLAB_MAX_LABS', 24, 1),
    labIdleMs: intFromEnv('LOCKLAB_LAB_IDLE_MS', 10 * 60_000, 1),
    warmLabs: intFromEnv('LOCKLAB_WARM_LABS', 1, 0),
    runRoot: defaultRunRoot(),
    allowedOrigins: (process.env.LOCKLAB_ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    ...overrides,
  };
}

/**
 * A learner's connection timeouts, held to the lab's maximum (SandboxLimits.maxConnectTimeoutMs,
 * maxCommandTimeoutMs): a connection waiting to connect, or a command waiting for its answer, keeps
 * a socket of the server's open that long. The connection is made with what this returns, and the
 * run's console says which option was lowered, so what the learner sees is what was used.
 */
import type { SandboxLimits } from '../types';
import type { LearnerConnOptions } from './connection';

export interface ClampedOption {
  option: 'connectTimeout' | 'commandTimeout';
  asked: number;
  max: number;
}

export function clampConnectOptions(
  options: LearnerConnOptions,
  limits: Pick<SandboxLimits, 'maxConnectTimeoutMs' | 'maxCommandTimeoutMs'>,
): { options: LearnerConnOptions; clamped: ClampedOption[] } {
  const out: LearnerConnOptions = { ...options };
  const clamped: ClampedOption[] = [];
  const caps = [
    ['connectTimeout', limits.maxConnectTimeoutMs],
    ['commandTimeout', limits.maxCommandTimeoutMs],
  ] as const;
  for (const [option, max] of caps) {
    const asked = options[option];
    // Not a positive number: the connection ignores it and uses the lab's default, which is within the cap.
    if (typeof asked !== 'number' || !Number.isFinite(asked) || asked <= max) continue;
    out[option] = max;
    clamped.push({ option, asked, max });
  }
  return { options: out, clamped };
}

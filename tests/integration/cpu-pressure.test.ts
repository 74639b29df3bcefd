/**
 * The CPU pressure run admission reads, observed on this kernel: idle-ish it reads a share from 0 to 1, and with more
 * busy processes than cores it climbs towards 1 (some task always waits for a core). Where the kernel keeps no PSI the
 * reader says so with null, and a file it cannot parse is an error, not a guess.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuPressure, parsePressure } from '@/server/ops/cpu-pressure';

const burners: ChildProcess[] = [];
afterEach(async () => {
  // Ended by their PIDs, and waited for.
  await Promise.all(
    burners.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
});

const hasPsi = fs.existsSync('/proc/pressure/cpu');

describe('CPU pressure', () => {
  it('parses the "some" line and refuses what is not PSI', () => {
    expect(parsePressure('some avg10=12.50 avg60=3.00 avg300=1.00 total=123456\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n')).toEqual({ avg10: 0.125, stallUs: 123456 });
    expect(() => parsePressure('cpu 1 2 3')).toThrow(/not PSI/);
  });

  it('answers null where the kernel keeps none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-psi-'));
    try {
      expect(cpuPressure(path.join(dir, 'cpu'))()).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('climbs towards saturation with more busy processes than cores (null, said once, on a kernel without PSI)', { timeout: 60_000 }, async () => {
    const read = cpuPressure();
    const first = read();
    if (!hasPsi) {
      expect(first).toBeNull();
      return;
    }
    expect(first).not.toBeNull();
    expect(first!).toBeGreaterThanOrEqual(0);
    expect(first!).toBeLessThanOrEqual(1);
    for (let i = 0; i < os.availableParallelism() + 2; i++) burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    // Read about every 300 ms, as admission does each second: over each stretch some task waited nearly all of it.
    await expect.poll(() => read(), { timeout: 30_000, interval: 300 }).toBeGreaterThan(0.6);
  });
});

/**
 * How saturated the cores are, from Linux's pressure stall information: the share of time in which at least one
 * runnable task waited for a core ("some" in /proc/pressure/cpu). Run admission reads it to let runs past its floor
 * start only while the cores still have room: load averages lag by a minute, and a count of running programs cannot
 * tell a lesson's mostly sleeping clients from a learner's hot loop.
 *
 * Read on demand (admission asks about once a second while runs wait for CPU), one small procfs read each time. Two
 * readings 0.2–5 s apart give the pressure over exactly that stretch, from PSI's stall counter; otherwise the
 * kernel's own 10-second average stands in, and the reading becomes the next one's start.
 */
import fs from 'node:fs';
import { log } from './log';

/** The share of the recent past (0–1) in which some task waited for a CPU; null where the kernel keeps no PSI. */
export type CpuPressure = () => number | null;

/** Readings closer together than this answer the last value: a counter delta over a few ms says nothing. */
const MIN_SPAN_MS = 200;
/** Readings further apart than this are too old to stand for "now": PSI's 10-second average does instead. */
const MAX_SPAN_MS = 5_000;

/** Parses /proc/pressure/cpu's "some" line: its 10-second average (0–1) and its stall counter (µs). */
export function parsePressure(text: string): { avg10: number; stallUs: number } {
  const some = /^some avg10=([\d.]+) avg60=[\d.]+ avg300=[\d.]+ total=(\d+)$/m.exec(text);
  if (!some) throw new Error(`/proc/pressure/cpu reads "${text.slice(0, 120)}", not PSI's "some avg10=… total=…" line`);
  return { avg10: Number(some[1]) / 100, stallUs: Number(some[2]) };
}

export function cpuPressure(path = '/proc/pressure/cpu', now: () => number = () => performance.now()): CpuPressure {
  let last: { at: number; stallUs: number; value: number } | null = null;
  let missing = false;
  return () => {
    if (missing) return null;
    const at = now();
    if (last && at - last.at < MIN_SPAN_MS) return last.value;
    let text: string;
    try {
      text = fs.readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A kernel built without PSI, or booted with psi=0 (EOPNOTSUPP), or a /proc without it: said once, and runs are
      // then admitted by memory and their count alone, as before this existed.
      if (code !== 'ENOENT' && code !== 'EOPNOTSUPP' && code !== 'ENOTSUP') throw error;
      missing = true;
      log.warn({ event: 'cpu-pressure-missing', path, code }, 'no CPU pressure information here: runs are admitted by memory and count only');
      return null;
    }
    const { avg10, stallUs } = parsePressure(text);
    const span = last ? at - last.at : Infinity;
    const value = last && span <= MAX_SPAN_MS ? Math.min(1, Math.max(0, (stallUs - last.stallUs) / 1000 / span)) : avg10;
    last = { at, stallUs, value };
    return value;
  };
}

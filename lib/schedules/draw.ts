/**
 * Draws from the seeded PRNG (lib/random.ts). Every draw of a schedule goes
 * through these, in a fixed order, so a seed names one schedule everywhere.
 */
import type { Random } from '../random';

/** An integer in [min, max], both included. */
export function drawInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function drawOne<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError('cannot draw from an empty list');
  return item;
}

export const drawChance = (random: Random, p: number): boolean => random() < p;

/** `count` distinct items, in drawn order (a partial Fisher–Yates shuffle of a copy). */
export function drawSome<T>(random: Random, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i++) {
    const j = drawInt(random, i, pool.length - 1);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, n);
}

/**
 * A small seeded PRNG (mulberry32): the same seed gives the same sequence on
 * the server and in the browser, so a scenario's schedule replays exactly.
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The largest seed: seeds are unsigned 32-bit, like mulberry32's state and a scenario's `seed`. */
export const MAX_SEED = 2 ** 32 - 1;

/**
 * A fresh seed for a run that names none. Unseeded on purpose: it is the one
 * draw a replay does not need, because the run reports the seed it drew.
 */
export function drawSeed(): number {
  return Math.floor(Math.random() * (MAX_SEED + 1));
}

/**
 * A seed derived from a seed and a path of small numbers (a client, a purpose):
 * each part is folded in through one step of the PRNG itself, so neighbouring
 * paths (client 1 and client 2, seed 7 and seed 8) give unrelated streams.
 */
export function deriveSeed(seed: number, ...path: number[]): number {
  let s = seed >>> 0;
  for (const part of path) s = Math.floor(seededRandom((s ^ Math.imul(part + 1, 0x9e3779b1)) >>> 0)() * 2 ** 32);
  return s;
}

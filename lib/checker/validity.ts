import type { Validity } from './types';

const RANK: Record<Validity, number> = { held: 0, unknown: 1, violated: 2 };

/** Jepsen's merge-valid: violated beats unknown beats held. An empty list is `held`. */
export function mergeValidity(...values: readonly Validity[]): Validity {
  let worst: Validity = 'held';
  for (const value of values) if (RANK[value] > RANK[worst]) worst = value;
  return worst;
}

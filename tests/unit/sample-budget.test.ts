import { describe, expect, it } from 'vitest';
import { SampleBudget } from '@/server/cluster/sample-budget';

describe('the node monitors’ shared sample budget', () => {
  it('leaves a quiet server at the floor and widens each node’s gap as more nodes sample', () => {
    let now = 0;
    const budget = new SampleBudget(500, 40, () => now);
    const node = {};
    budget.sampled(node);
    expect(budget.gapMs()).toBe(40);

    const busy = Array.from({ length: 100 }, () => ({}));
    now = 200; // past the recount interval
    for (const n of busy) budget.sampled(n);
    expect(budget.gapMs()).toBeCloseTo((1_000 * 101) / 500);
  });

  it('stops counting nodes that went quiet or were forgotten', () => {
    let now = 0;
    const budget = new SampleBudget(100, 10, () => now);
    const nodes = Array.from({ length: 20 }, () => ({}));
    for (const n of nodes) budget.sampled(n);
    expect(budget.gapMs()).toBe(200);
    for (const n of nodes.slice(0, 10)) budget.forget(n);
    now = 150;
    expect(budget.gapMs()).toBe(100);
    now = 1_500; // none sampled for over a second
    expect(budget.gapMs()).toBe(10);
  });
});

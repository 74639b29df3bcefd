/** The server's run budget: memory and runs at once, first come first served, and refusals in words. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunAdmission } from '@/server/runs/run-admission';
import { clampLimits } from '@/server/runs/run-limits';
import { DEFAULT_LIMITS } from '@/server/sandbox';

const MB = 2 ** 20;
const admission = (over: Partial<ConstructorParameters<typeof RunAdmission>[0]> = {}) =>
  new RunAdmission({ memoryBudgetBytes: 100 * MB, maxConcurrent: 2, maxQueued: 3, maxWaitMs: 5_000, ...over });

afterEach(() => {
  vi.useRealTimers();
});

describe('RunAdmission', () => {
  it('admits at once while there is room, then queues in order and tells each run how many are ahead', async () => {
    const a = admission();
    const first = await a.admit(10 * MB, {});
    const second = await a.admit(10 * MB, {});
    const heard: number[] = [];
    const order: string[] = [];
    const third = a.admit(10 * MB, {}, (ahead) => heard.push(ahead)).then((r) => (order.push('third'), r));
    const fourth = a.admit(10 * MB, {}).then((r) => (order.push('fourth'), r));
    expect(a.waiting).toBe(2);
    expect(heard).toEqual([2]);
    first.release();
    first.release(); // twice is once
    await third;
    expect(a.active).toBe(2);
    second.release();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
  });

  it('keeps all runs within the memory budget, and no later run overtakes a waiting one', async () => {
    const a = admission({ maxConcurrent: 10 });
    const big = await a.admit(80 * MB, {});
    const order: string[] = [];
    const medium = a.admit(30 * MB, {}).then((r) => (order.push('medium'), r));
    // This one would fit now, but it came later.
    const small = a.admit(10 * MB, {}).then((r) => (order.push('small'), r));
    await Promise.resolve();
    expect(order).toEqual([]);
    big.release();
    await Promise.all([medium, small]);
    expect(order).toEqual(['medium', 'small']);
    expect(a.reservedBytes).toBe(40 * MB);
  });

  it('refuses a run that could never fit, a full queue, and a run that waited too long', async () => {
    vi.useFakeTimers();
    const a = admission({ maxConcurrent: 1, maxQueued: 1 });
    await expect(a.admit(200 * MB, {})).rejects.toThrow(/would reserve 200 MB, more than the 100 MB/);
    await a.admit(10 * MB, {});
    const waiting = a.admit(10 * MB, {});
    await expect(a.admit(10 * MB, {})).rejects.toThrow(/1 more are waiting/);
    const timedOut = expect(waiting).rejects.toThrow(/busy with other learners' programs for 5 s/);
    vi.advanceTimersByTime(5_000);
    await timedOut;
    expect(a.waiting).toBe(0);
  });

  it('forgets a waiting run whose learner pressed Run again or Stop', async () => {
    const a = admission({ maxConcurrent: 1 });
    const running = await a.admit(10 * MB, {});
    const abort = new AbortController();
    const replaced = a.admit(10 * MB, {}, undefined, abort.signal);
    abort.abort();
    await expect(replaced).rejects.toThrow(/replaced/);
    expect(a.waiting).toBe(0);
    running.release();
    expect(a.active).toBe(0);
  });
});

describe('clampLimits', () => {
  it('lets a run lower a limit, never raise one, and says which it lowered', () => {
    const { limits, notes } = clampLimits({ wallClockMs: 120_000, commandTimeoutMs: 500 }, DEFAULT_LIMITS);
    expect(limits).toEqual({ wallClockMs: DEFAULT_LIMITS.wallClockMs, commandTimeoutMs: 500 });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/asked for 120000 as its wall-clock time per client \(ms\); the server allows at most 30000/);
    expect(clampLimits(undefined, DEFAULT_LIMITS)).toEqual({ limits: {}, notes: [], noteWords: [] });
  });
});

describe('RunAdmission across browsers', () => {
  const share = { runs: 2, memoryBytes: 40 * MB };

  it("holds each browser to its share, and serves the browsers waiting in turn, not first come", async () => {
    const a = admission({ maxConcurrent: 4, maxQueued: 20, perOwner: share });
    const stranger = { browser: 'stranger' };
    // The stranger starts six runs: two run, four wait for its own share, not for the server.
    const strangers = Array.from({ length: 6 }, () => a.admit(10 * MB, stranger));
    const admitted = await Promise.all(strangers.slice(0, 2));
    expect(a.active).toBe(2);
    expect(a.waiting).toBe(4);
    // A bystander's run starts at once: the server has room, and the stranger's queue is its own.
    const bystander = await a.admit(10 * MB, { browser: 'bystander' });
    expect(a.active).toBe(3);
    expect(a.runningFor(stranger)).toBe(2);
    bystander.release();
    // Filled up by others, the server serves the waiting browser running fewest first: the late bystander before the stranger's third.
    const others = await Promise.all([a.admit(10 * MB, { browser: 'o1' }), a.admit(10 * MB, { browser: 'o2' })]);
    const order: string[] = [];
    const late = a.admit(10 * MB, { browser: 'late' }).then((r) => (order.push('late'), r));
    admitted[0]!.release();
    await late;
    expect(order).toEqual(['late']);
    // The stranger never held more than its share.
    expect(a.runningFor(stranger)).toBeLessThanOrEqual(2);
    for (const o of others) o.release();
    (await late).release();
    // The stranger's other runs go on, two at a time, as its own end.
    admitted[1]!.release();
    for (const next of strangers.slice(2)) {
      expect(a.runningFor(stranger)).toBeLessThanOrEqual(2);
      (await next).release();
    }
    expect(a.waiting).toBe(0);
  });

  it("a browser's memory share binds after its first run, which always fits", async () => {
    const a = admission({ maxConcurrent: 10, perOwner: share });
    const big = await a.admit(60 * MB, { browser: 'b' }); // over the 40 MB share, alone: admitted
    let second = false;
    const next = a.admit(10 * MB, { browser: 'b' }).then((r) => ((second = true), r));
    await Promise.resolve();
    expect(second).toBe(false);
    big.release();
    await next;
    expect(second).toBe(true);
  });
});

describe('RunAdmission making room', () => {
  it('stops, after its slice, a run of a browser holding more for a waiting one holding none, and only such a run', async () => {
    vi.useFakeTimers();
    let now = 0;
    const a = admission({ maxConcurrent: 10, memoryBudgetBytes: 100 * MB, maxWaitMs: 60_000, perOwner: { runs: 2, memoryBytes: 100 * MB }, sliceMs: 10_000, now: () => now });
    const stopped: { who: string; ranMs: number }[] = [];
    const hog = async (who: string, yieldable: boolean) => {
      const admitted = await a.admit(45 * MB, { browser: who });
      if (yieldable) admitted.yieldable((ranMs) => (stopped.push({ who, ranMs }), admitted.release()));
      return admitted;
    };
    await hog('grader', false); // a check's run: never cut
    await hog('idle', true);
    let started = false;
    const bystander = a.admit(20 * MB, { browser: 'bystander' }).then((r) => ((started = true), r));
    await Promise.resolve();
    // Within its slice the idle run keeps going, and the bystander waits.
    expect(stopped).toEqual([]);
    expect(started).toBe(false);
    now = 10_001;
    vi.advanceTimersByTime(10_001);
    await bystander;
    expect(stopped).toEqual([{ who: 'idle', ranMs: 10_001 }]);
    expect(started).toBe(true);
  });
});

describe('RunAdmission by CPU as well as memory', () => {
  /** Admission with a CPU floor of 2, a pressure limit of 50 % and a settle time of 1 s, on a clock the test moves. */
  const setUp = () => {
    vi.useFakeTimers();
    const clock = { now: 0, pressure: 0.9 as number | null, reads: 0 };
    const a = admission({
      maxConcurrent: 10,
      maxQueued: 10,
      maxWaitMs: 60_000,
      now: () => clock.now,
      cpu: { floor: 2, limit: 0.5, settleMs: 1_000, pressure: () => (clock.reads++, clock.pressure) },
    });
    const advance = async (ms: number) => {
      clock.now += ms;
      await vi.advanceTimersByTimeAsync(ms);
    };
    return { a, clock, advance };
  };

  it('admits the floor whatever the pressure; past it, waits while the cores are saturated, and tells each run its place', async () => {
    const { a, clock, advance } = setUp();
    await a.admit(MB, { browser: 'a' });
    await a.admit(MB, { browser: 'b' });
    // Two runs within the floor: the pressure was not even read.
    expect(clock.reads).toBe(0);
    const heard: number[] = [];
    let third = false;
    const waiting = a.admit(MB, { browser: 'c' }, (ahead) => heard.push(ahead)).then((r) => ((third = true), r));
    await advance(5_000);
    expect(third).toBe(false);
    expect(heard).toEqual([2]);
    // Looked at again about once a second, not on every turn.
    expect(clock.reads).toBeGreaterThanOrEqual(4);
    expect(clock.reads).toBeLessThanOrEqual(7);
    clock.pressure = 0.2;
    await advance(1_001);
    await waiting;
    expect(third).toBe(true);
    expect(a.active).toBe(3);
  });

  it('past the floor lets runs in one at a time, a settle time apart, even while the pressure reads low', async () => {
    const { a, clock, advance } = setUp();
    clock.pressure = 0;
    await a.admit(MB, { browser: 'a' });
    await a.admit(MB, { browser: 'b' });
    await a.admit(MB, { browser: 'c' });
    const admittedAt: number[] = [];
    const more = ['d', 'e', 'f'].map((browser) => a.admit(MB, { browser }).then((r) => (admittedAt.push(clock.now), r)));
    await advance(500);
    expect(admittedAt).toEqual([]);
    for (let i = 0; i < 4; i++) await advance(1_001);
    await Promise.all(more);
    expect(admittedAt).toHaveLength(3);
    for (let i = 1; i < admittedAt.length; i++) expect(admittedAt[i]! - admittedAt[i - 1]!).toBeGreaterThanOrEqual(1_000);
  });

  it('without CPU pressure information admits by memory and count alone', async () => {
    const { a, clock } = setUp();
    clock.pressure = null;
    await a.admit(MB, { browser: 'a' });
    await a.admit(MB, { browser: 'b' });
    await a.admit(MB, { browser: 'c' });
    expect(a.active).toBe(3);
  });

  it("a run held back for the cores lets a browser holding more runs yield its slice, as one held back for memory does", async () => {
    vi.useFakeTimers();
    let now = 0;
    const stopped: string[] = [];
    const a = admission({
      maxConcurrent: 10,
      maxWaitMs: 60_000,
      perOwner: { runs: 3, memoryBytes: 100 * MB },
      sliceMs: 10_000,
      now: () => now,
      cpu: { floor: 2, limit: 0.5, settleMs: 1_000, pressure: () => 1 },
    });
    for (let i = 0; i < 2; i++) {
      const admitted = await a.admit(MB, { browser: 'hog' });
      admitted.yieldable(() => (stopped.push('hog'), admitted.release()));
    }
    const bystander = a.admit(MB, { browser: 'bystander' });
    now = 10_001;
    await vi.advanceTimersByTimeAsync(10_001);
    await bystander;
    expect(stopped).toEqual(['hog']);
    expect(a.runningFor({ browser: 'bystander' })).toBe(1);
  });
});

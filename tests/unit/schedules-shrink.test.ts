/** Shrinking a failing schedule (lib/schedules): candidates are smaller and valid; a greedy shrink finds the minimal one within its budget. */
import { describe, expect, it, vi } from 'vitest';
import { scenarioSchema, type Scenario, type ScenarioInput } from '@/lib/scenario';
import { describeSchedule, faultCount, generateSchedule, shrink, shrinkCandidates, type FaultSpace } from '@/lib/schedules';
import { groupSteps } from '@/lib/schedules/groups';
import { isSmaller, scheduleSize } from '@/lib/schedules/size';
import { everyFault, MASTERS, REPLICATED } from './schedules-fixtures';

const SPACE: FaultSpace = everyFault({ minMs: 800, maxMs: 5_000 });

const scenario = (input: Omit<ScenarioInput, 'id' | 'title'>): Scenario => scenarioSchema.parse({ id: 'hand', title: 'By hand', ...input });

/** "Fails iff it contains a pause of Client 2 longer than 500 ms": the synthetic bug the shrink must isolate. */
const pausesClient2 = (s: Scenario): boolean => s.steps.some((x) => x.action === 'client-pause' && x.client === 2 && (x.durationMs ?? Infinity) > 500);

describe('faultCount and describeSchedule', () => {
  const s = scenario({
    clients: 3,
    steps: [
      { at: 100, action: 'node-kill', node: 3 },
      { at: 900, action: 'node-restart', node: 3 },
      { at: 300, when: { on: 'lock-acquired', client: 1 }, action: 'client-pause', client: 2, durationMs: 1_200 },
      { at: 200, action: 'link-cut', client: 1, node: 1, mode: 'refuse' },
      { at: 200, action: 'link-cut', client: 1, node: 2, mode: 'refuse' },
      { at: 700, action: 'link-heal', client: 1, node: 1 },
      { at: 700, action: 'link-heal', client: 1, node: 2 },
      { at: 50, when: { on: 'job-enter', client: 2, nth: 2 }, action: 'link-delay', client: 2, node: 4, delayMs: 80 },
      { at: 450, when: { on: 'job-enter', client: 2, nth: 2 }, action: 'link-delay', client: 2, node: 4, delayMs: 0 },
      { at: 2_000, action: 'client-resume', client: 3 },
    ],
  });

  it('counts faults, not recoveries; a partition is one fault', () => {
    expect(faultCount(s)).toBe(4);
    expect(groupSteps(s).orphans).toEqual([9]);
  });

  it('reads one line per fault, with its timing and its recovery', () => {
    expect(describeSchedule(s)).toEqual([
      'kill Node 3 at 100 ms, then restart Node 3 800 ms later',
      'pause Client 2 for 1.2 s, 300 ms after Client 1 is granted the lock',
      'cut Client 1 off from Node 1 and Node 2 (refuse) at 200 ms, then heal those links 500 ms later',
      'delay Client 2 → Node 4 by 80 ms, 50 ms after Client 2 enters its job for the 2nd time, then lift the delay on Client 2 → Node 4 400 ms later',
      'resume Client 3 at 2000 ms',
    ]);
  });

  it('offers the moves the shrinker promises on this scenario', () => {
    const candidates = shrinkCandidates(s);
    // Each fault removed with its recovery (the partition's four steps at once), the stray resume dropped.
    expect(candidates.some((c) => faultCount(c) === 3 && c.steps.length === 6 && !c.steps.some((x) => x.action.startsWith('link-cut')))).toBe(true);
    expect(candidates.some((c) => c.steps.length === 9 && !c.steps.some((x) => x.action === 'client-resume'))).toBe(true);
    // A partition one link smaller.
    expect(candidates.some((c) => faultCount(c) === 4 && c.steps.filter((x) => x.action === 'link-cut').length === 1 && c.steps.filter((x) => x.action === 'link-heal').length === 1)).toBe(true);
    // The restart 1 ms after the kill at the closest; the pause 1 ms at the shortest.
    expect(candidates.some((c) => c.steps.some((x) => x.action === 'node-restart' && x.at === 101))).toBe(true);
    expect(candidates.some((c) => c.steps.some((x) => x.action === 'client-pause' && x.durationMs === 601))).toBe(true);
    // Client 3 is named (a resume), so no candidate drops it.
    expect(candidates.every((c) => c.clients === 3)).toBe(true);
  });
});

describe('shrinkCandidates', () => {
  it('are each strictly smaller, valid, and keep every recovery after its fault (300 schedules)', { timeout: 120_000 }, () => {
    let total = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const s = generateSchedule(SPACE, seed % 2 ? MASTERS : REPLICATED, seed);
      const size = scheduleSize(s);
      const candidates = shrinkCandidates(s);
      // At least: every fault removed.
      expect(candidates.length).toBeGreaterThanOrEqual(faultCount(s));
      expect(candidates.filter((c) => faultCount(c) === faultCount(s) - 1).length).toBeGreaterThanOrEqual(faultCount(s));
      for (const c of candidates) {
        total++;
        expect(isSmaller(scheduleSize(c), size), `seed ${seed}`).toBe(true);
        expect(scenarioSchema.safeParse(c).success, `seed ${seed}`).toBe(true);
        expect(c.seed).toBe(s.seed);
        expect(groupSteps(c).orphans, `seed ${seed}`).toEqual([]);
        for (const g of groupSteps(c).groups) {
          const fault = c.steps[g.faults[0]!]!;
          for (const r of g.recoveries) expect(c.steps[r]!.at).toBeGreaterThan(fault.at);
        }
        expect(c.description).toBe(faultCount(c) ? `${faultCount(c)} fault${faultCount(c) === 1 ? '' : 's'}: ${describeSchedule(c).join('; ')}.` : 'No fault.');
      }
    }
    expect(total).toBeGreaterThan(3_000);
  });

  it('drop the last client only when no step names it', () => {
    const free = scenario({ clients: 3, steps: [{ at: 0, action: 'client-crash', client: 2 }] });
    expect(shrinkCandidates(free).some((c) => c.clients === 2)).toBe(true);
    const waitedFor = scenario({ clients: 3, steps: [{ at: 0, when: { on: 'job-enter', client: 3 }, action: 'client-crash', client: 2 }] });
    expect(shrinkCandidates(waitedFor).some((c) => c.clients < 3)).toBe(false);
  });

  it('offer nothing for an empty schedule of one client', () => {
    expect(shrinkCandidates(scenario({ clients: 1, steps: [] }))).toEqual([]);
  });
});

/** A 6-fault schedule of the space that fails the synthetic predicate: the first seed that gives one. */
function failingSchedule(): Scenario {
  for (let seed = 1; seed < 10_000; seed++) {
    const s = generateSchedule(SPACE, MASTERS, seed);
    if (faultCount(s) === 6 && pausesClient2(s)) return s;
  }
  throw new Error('no seed gives a failing 6-fault schedule');
}

describe('shrink', () => {
  it('shrinks a 6-fault schedule to the one pause of Client 2, just over 500 ms', async () => {
    const failing = failingSchedule();
    const steps: number[] = [];
    let calls = 0;
    const result = await shrink(
      failing,
      async (c) => {
        calls++;
        return pausesClient2(c);
      },
      { deadline: Date.now() + 10_000, maxRuns: 500 },
      (p) => steps.push(p.faults),
    );
    expect(result.before).toBe(6);
    expect(result.after).toBe(1);
    expect(result.runs).toBe(calls);
    expect(result.scenario.steps).toHaveLength(1);
    const [pause] = result.scenario.steps;
    expect(pause).toMatchObject({ action: 'client-pause', client: 2, durationMs: 501, at: 0 });
    // Client 2 (and a trigger's client) stays; the rest go.
    expect(result.scenario.clients).toBe(Math.max(2, pause!.when?.client ?? 0));
    expect(result.scenario.seed).toBe(failing.seed);
    expect(pausesClient2(result.scenario)).toBe(true);
    // Progress only goes down.
    expect(steps.length).toBeGreaterThan(0);
    for (let i = 1; i < steps.length; i++) expect(steps[i]!).toBeLessThanOrEqual(steps[i - 1]!);
    // Figures for the report.
    console.log(`synthetic shrink: seed ${failing.seed}, ${result.before} → ${result.after} faults in ${result.runs} runs, ${steps.length} accepted steps`);
    expect(result.runs).toBeLessThan(150);
  });

  it('stops at maxRuns', async () => {
    let calls = 0;
    const result = await shrink(
      failingSchedule(),
      async (c) => {
        calls++;
        return pausesClient2(c);
      },
      { deadline: Date.now() + 10_000, maxRuns: 7 },
    );
    expect(calls).toBe(7);
    expect(result.runs).toBe(7);
    expect(result.after).toBeGreaterThanOrEqual(1);
  });

  it('starts no run after the deadline', async () => {
    const failing = failingSchedule();
    let calls = 0;
    const past = await shrink(failing, async () => (calls++, true), { deadline: Date.now() - 1, maxRuns: 100 });
    expect(calls).toBe(0);
    expect(past).toEqual({ scenario: failing, runs: 0, before: 6, after: 6 });

    // Each run takes 20 ms of a fake clock (so a busy machine cannot change the count): a 100 ms budget
    // allows exactly five runs (started at 0, 20, 40, 60 and 80 ms), never dozens.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const started = Date.now();
      const slow = await shrink(
        failing,
        async (c) => {
          vi.setSystemTime(Date.now() + 20);
          return pausesClient2(c);
        },
        { deadline: started + 100, maxRuns: 1_000 },
      );
      expect(slow.runs).toBe(5);
      expect(Date.now() - started).toBe(100);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the schedule when no candidate fails, having tried each once', async () => {
    const failing = failingSchedule();
    const result = await shrink(failing, async () => false, { deadline: Date.now() + 10_000, maxRuns: 10_000 });
    expect(result.scenario).toBe(failing);
    expect(result.runs).toBe(shrinkCandidates(failing).length);
    expect(result.after).toBe(6);
  });
});

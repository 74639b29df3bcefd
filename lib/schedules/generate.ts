/**
 * Jepsen's generator for Lock Lab: a random schedule of faults drawn from a
 * lesson's fault space, as an ordinary scenario (lib/scenario.ts) the runner
 * plays like any lesson's. Same space, topology and seed → the same scenario,
 * so a failing schedule is named by its seed and replays.
 */
import { MAX_CLIENTS, MAX_NODES } from '../cluster';
import { MAX_SEED, seededRandom, type Random } from '../random';
import { scenarioSchema, type Scenario, type ScenarioStep, type Trigger } from '../scenario';
import { scheduleDescription } from './describe';
import { drawChance, drawInt, drawOne } from './draw';
import { drawFault, type DrawnFault, type Timing } from './draw-fault';
import { Plan } from './plan';
import { kindsFor, type FaultSpace } from './space';

/**
 * A triggered fault lands this soon after its event at most: the point of a trigger is the moment itself
 * ("as Client 1 is granted the lock"), and a long wait after it would be a clock time in disguise.
 */
export const MAX_TRIGGER_OFFSET_MS = 500;
/** The events a fault may wait for, and how many of them: the first few grants, jobs and answers of a run. */
const TRIGGER_EVENTS = ['lock-acquired', 'job-enter', 'command-answered'] as const;
const MAX_NTH = 3;
/** Draws per fault before giving up on it (every target taken, the down budget spent). */
const ATTEMPTS = 8;

export interface ScheduleTopology {
  kind: string;
  nodes: number;
}

function drawTrigger(random: Random, clients: number): Trigger {
  const on = drawOne(random, TRIGGER_EVENTS);
  const client = drawInt(random, 1, clients);
  const nth = drawInt(random, 1, MAX_NTH);
  return on === 'command-answered' ? { on, command: '*', client, nth } : { on, client, nth };
}

/** Half of the faults at a clock time in [0, horizon], half a small offset after an event of the run: Jepsen aims at interleavings. */
function drawTiming(random: Random, horizonMs: number, clients: number): Timing {
  if (drawChance(random, 0.5)) return { at: drawInt(random, 0, horizonMs) };
  const when = drawTrigger(random, clients);
  return { at: drawInt(random, 0, Math.min(horizonMs, MAX_TRIGGER_OFFSET_MS)), when };
}

export function generateSchedule(space: FaultSpace, topology: ScheduleTopology, seed: number, id?: string): Scenario {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) throw new RangeError(`random seed must be an integer in [0, ${MAX_SEED}], not ${seed}`);
  const random = seededRandom(seed);
  const nodes = Math.max(1, Math.min(topology.nodes, MAX_NODES));
  const clients = drawInt(random, Math.min(space.clients.min, MAX_CLIENTS), Math.min(space.clients.max, MAX_CLIENTS));
  const staggerMs = drawInt(random, space.staggerMs.min, space.staggerMs.max);
  const kinds = kindsFor(space, topology);
  const kills = kinds.flatMap((k) => (k.kind === 'node-kill' ? [k.maxDown] : []));
  const plan = new Plan(kills.length ? Math.min(...kills) : undefined);
  const drawn: DrawnFault[] = [];
  const wanted = kinds.length ? drawInt(random, 1, space.maxFaults) : 0;
  for (let n = 0; n < wanted; n++) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const kind = drawOne(random, kinds);
      const fault = drawFault(kind, { random, clients, nodes, timing: drawTiming(random, space.horizonMs, clients) });
      if (!plan.admits(fault)) continue;
      plan.add(fault);
      drawn.push(fault);
      break;
    }
  }
  // Listed as a learner reads them: clock times in order, then the faults that wait for a moment of the run.
  const listed = [...drawn].sort((a, b) => Number(a.timing.when !== undefined) - Number(b.timing.when !== undefined) || a.timing.at - b.timing.at);
  const steps: ScenarioStep[] = listed.flatMap((f) => f.steps);
  const scenario: Scenario = {
    id: id ?? `random-${seed}`,
    title: `A random schedule (random seed ${seed})`,
    description: '',
    seed,
    clients,
    staggerMs,
    // The schedule is already random; jitter would move a fault past the recovery drawn for it.
    jitterMs: 0,
    steps,
  };
  // Parsed, so a generator bug is a thrown error here rather than a scenario the runner refuses.
  return scenarioSchema.parse({ ...scenario, description: scheduleDescription(scenario) });
}

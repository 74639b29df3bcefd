/**
 * Benchmark: the checker on 100,000 history events (goal: well under 500 ms).
 * Run: node --import tsx bench/checker.bench.ts
 *
 * The history is a seeded, realistic Redlock run: five clients contend for one
 * lock on five nodes; each round the winner's SET NX on every node (invoke +
 * completion), its LockEvents, a critical section with a fenced write, and a
 * release script on every node; the losers' failed SETs. Prints one markdown
 * table row per mode; the first run is cold, the figure is the median of 5.
 */
import { performance } from 'node:perf_hooks';
import { IncrementalChecker, check } from '../lib/checker/index';
import type { HistoryEvent, HistoryInput } from '../lib/history';

const TARGET = 100_000;
const NODES = 5;
const CLIENTS = 5;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

function makeHistory(): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  let t = 0;
  let opId = 0;
  const push = (input: HistoryInput) => events.push({ ...input, seq: events.length, t: input.t ?? t } as HistoryEvent);
  const redis = (client: number, node: number, command: string, args: string[], reply: string | number | null) => {
    const id = ++opId;
    push({ type: 'redis', phase: 'invoke', opId: id, client, node, command, args });
    t += 0.05;
    push({ type: 'redis', phase: 'ok', opId: id, client, node, command, reply });
  };
  let round = 0;
  while (events.length < TARGET) {
    round += 1;
    const winner = 1 + Math.floor(random() * CLIENTS);
    const token = `tok-${round}`;
    push({ type: 'lock', client: winner, event: 'attempt', resources: ['lock'], token, attempt: 1 });
    for (let node = 1; node <= NODES; node++) redis(winner, node, 'SET', ['lock', token, 'NX', 'PX', '1000'], 'OK');
    push({ type: 'lock', client: winner, event: 'acquired', resources: ['lock'], token, quorum: 3, ttlMs: 1000, validityMs: 980, votes: Array.from({ length: NODES }, (_, i) => ({ node: i + 1, ok: true })) });
    push({ type: 'job', phase: 'enter', client: winner, job: 'report', execution: round });
    for (let loser = 1; loser <= CLIENTS; loser++) {
      if (loser === winner) continue;
      push({ type: 'lock', client: loser, event: 'attempt', resources: ['lock'], token: `lose-${round}-${loser}`, attempt: 1 });
      for (let node = 1; node <= NODES; node++) redis(loser, node, 'SET', ['lock', `lose-${round}-${loser}`, 'NX', 'PX', '1000'], null);
      push({ type: 'lock', client: loser, event: 'failed', resources: ['lock'], token: `lose-${round}-${loser}` });
    }
    t += 5 + random() * 5;
    push({ type: 'store', client: winner, key: 'report', value: `r${round}`, token: round, accepted: true, highest: round - 1 });
    push({ type: 'job', phase: 'exit', client: winner, job: 'report', execution: round });
    for (let node = 1; node <= NODES; node++) redis(winner, node, 'EVAL', [RELEASE, '1', 'lock', token], 1);
    push({ type: 'lock', client: winner, event: 'released', resources: ['lock'], token });
    t += 1;
  }
  return events.slice(0, TARGET);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function measure(run: () => void): { cold: number; median: number } {
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return { cold: times[0] ?? Number.NaN, median: median(times.slice(1)) };
}

const history = makeHistory();
let valid = '';
const batch = measure(() => {
  valid = check(history).valid;
});
const streamed = measure(() => {
  // The server's pattern: a batch every 50 ms, a verdict after each.
  const checker = new IncrementalChecker();
  for (let i = 0; i < history.length; i += 500) {
    checker.push(history.slice(i, i + 500));
    checker.verdict();
  }
  checker.verdict({ final: true });
});

const row = (mode: string, m: { cold: number; median: number }) =>
  `| checker, ${history.length.toLocaleString('en')} events | ${mode} | ${m.median.toFixed(1)} ms | ${m.cold.toFixed(1)} ms | < 500 ms | ${m.median < 500 ? 'met' : 'MISSED'} |`;
console.log('| benchmark | mode | median of 5 | cold | goal | |');
console.log('|---|---|---|---|---|---|');
console.log(row('check(history), one pass', batch));
console.log(row('IncrementalChecker, 200 batches of 500 + verdict each', streamed));
console.log(`(verdict on the generated history: ${valid})`);

/**
 * Classroom benchmark (issue 6): one classroom, 100 simulated learner sockets
 * split across two lab server processes that share a coordination
 * redis-server. The instructor (on server A, which owns the lab) sends a
 * demo event; we time how long until every learner has received it.
 * - "Kill Node 3": the instructor's command → each learner's `nodes:update` with Node 3 down.
 * - A demo: `classroom:demo` → each learner's `classroom:demo` announcement.
 */
import type { Socket } from 'socket.io-client';
import { tabSoon } from '@/tests/helpers/browser-identity';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { Result } from '@/lib/result';
import { spawnLabServer, startCoordinationRedis } from '../tests/integration/classroom-cluster-fixture';
import { ms, percentile, printTable, type Row } from './stats';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const LEARNERS = 100;
const ROUNDS = 10;
const DEMOS = 3;
const TOKEN = 'bench-instructor-token';
const GOAL_P95_MS = 250;

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

async function connect(url: string): Promise<Client> {
  const socket: Client = tabSoon(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Resolves with each learner's arrival time (performance.now) of the first event that `matches`. */
function arrivals(learners: Client[], listen: (socket: Client, done: () => void) => () => void): Promise<number[]> {
  return Promise.all(
    learners.map(
      (socket) =>
        new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => {
            stop();
            reject(new Error('a learner did not receive the event within 10 s'));
          }, 10_000);
          const stop = listen(socket, () => {
            clearTimeout(timer);
            stop();
            resolve(performance.now());
          });
        }),
    ),
  );
}

const coordination = await startCoordinationRedis();
const common = { LOCKLAB_COORDINATION_URL: coordination.url, LOCKLAB_INSTRUCTOR_TOKEN: TOKEN, LOCKLAB_ACTION_BURST: '1000', LOCKLAB_ACTION_RATE: '1000' };
// Server A owns the lab and runs the demos' programs; server B only relays.
const [a, b] = await Promise.all([spawnLabServer({ ...common, LOCKLAB_SANDBOX: '1' }), spawnLabServer({ ...common, LOCKLAB_SANDBOX: '0' })]);
const sockets: Client[] = [];
try {
  const instructor = await connect(a.url);
  sockets.push(instructor);
  const created = value(await instructor.emitWithAck('classroom:create', { token: TOKEN, name: 'Benchmark' }));

  const learners: Client[] = [];
  const onA = new Set<Client>();
  const joinTimes: number[] = [];
  for (let i = 0; i < LEARNERS; i++) {
    const server = i % 2 === 0 ? a : b;
    const socket = await connect(server.url);
    sockets.push(socket);
    learners.push(socket);
    if (server === a) onA.add(socket);
    const started = performance.now();
    value(await socket.emitWithAck('classroom:join', { code: created.code, name: `Learner ${i + 1}` }));
    joinTimes.push(performance.now() - started);
  }

  const killAll: number[] = [];
  const killA: number[] = [];
  const killB: number[] = [];
  const slowest: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const seen = arrivals(learners, (socket, done) => {
      const onUpdate = (diff: { labId: string; nodes: { id: number; state: string }[] }) => {
        if (diff.labId === created.labId && diff.nodes.some((n) => n.id === 3 && n.state === 'down')) done();
      };
      socket.on('nodes:update', onUpdate);
      return () => socket.off('nodes:update', onUpdate);
    });
    const sent = performance.now();
    value(await instructor.emitWithAck('classroom:command', { command: 'node:kill', input: { node: 3 } }));
    const times = await seen;
    times.forEach((t, i) => {
      const latency = t - sent;
      killAll.push(latency);
      (onA.has(learners[i]!) ? killA : killB).push(latency);
    });
    slowest.push(Math.max(...times) - sent);
    value(await instructor.emitWithAck('classroom:command', { command: 'node:restart', input: { node: 3 } }));
  }

  const demoAll: number[] = [];
  for (let round = 0; round < DEMOS; round++) {
    const seen = arrivals(learners, (socket, done) => {
      const onDemo = () => done();
      socket.on('classroom:demo', onDemo);
      return () => socket.off('classroom:demo', onDemo);
    });
    const sent = performance.now();
    value(await instructor.emitWithAck('classroom:demo', { demo: { builtin: 'gc-pause-breaks-redlock' }, seed: round + 1 }));
    for (const t of await seen) demoAll.push(t - sent);
    value(await instructor.emitWithAck('classroom:command', { command: 'run:stop', input: {} }));
  }

  const row = (measure: string, values: number[], p: number, goal = false): Row => {
    const v = percentile(values, p);
    return { measure, value: ms(v), goal: goal ? `≤ ${GOAL_P95_MS} ms` : '', met: goal ? v <= GOAL_P95_MS : null };
  };
  printTable(`Classroom: ${LEARNERS} learners on 2 servers (${LEARNERS / 2} each), coordination Redis, ${ROUNDS} kills, ${DEMOS} demos`, [
    row('"Kill Node 3" → every learner, p50', killAll, 50),
    row('"Kill Node 3" → every learner, p95', killAll, 95, true),
    row('  learners on A (owner), p95', killA, 95),
    row('  learners on B (via adapter), p95', killB, 95),
    row('  last learner of a round, p50', slowest, 50),
    row('demo start (incl. fresh lab restore) → every learner, p50', demoAll, 50),
    row('demo start (incl. fresh lab restore) → every learner, p95', demoAll, 95),
    row('learner join (ack with snapshot), p50', joinTimes, 50),
    row('learner join, p95', joinTimes, 95),
  ]);
} finally {
  for (const s of sockets) s.close();
  await Promise.all([a.stop(), b.stop()]);
  await coordination.stop();
}

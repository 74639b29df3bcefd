/**
 * The classroom client against a stand-in server (real socket.io over
 * loopback, no Redis): the join's history arrives before its ack and is
 * kept; another lab's pushes are ignored; the instructor's lab commands go
 * out as classroom:command; a demo replaces the last run; a learner rejoins
 * with its learnerId; "class over" clears the tab's seat. The real server
 * is covered by tests/integration/classroom.test.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io } from 'socket.io-client';
import type { ClassroomDemoStarted, ClassroomJoined } from '@/lib/classroom';
import type { LabSnapshot, NodeView } from '@/lib/cluster';
import { check } from '@/lib/checker';
import type { HistoryEvent } from '@/lib/history';
import type { RunEnded } from '@/lib/run';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { fail, ok } from '@/lib/result';
import { createLabStore, type LabStore } from '@/components/lab/lab-store';
import { ClassroomClient } from '@/components/classroom/classroom-client';
import { learnerKey, type Credentials } from '@/components/classroom/classroom-state';
import { createClassroomStore, type ClassroomStore } from '@/components/classroom/classroom-store';

const CODE = 'K7M2Q-9XR4T-HB3WZ';
const LAB = 'class-lab';

const node = (id: number, state: NodeView['state'] = 'up'): NodeView => ({
  id,
  label: `Node ${id}`,
  port: 41_000 + id,
  state,
  role: 'master',
  replicaOf: null,
  persistence: 'none',
  restartDueAt: null,
  keys: [],
  keysTruncated: false,
  clockJumpMs: 0,
  intervention: null,
});

const snapshot = (): LabSnapshot => ({
  labId: LAB,
  topology: { kind: 'masters', nodes: 3, persistence: 'none' },
  clients: 2,
  nodes: [node(1), node(2), node(3)],
  links: [],
  replication: null,
  now: 1_000,
});

const event = (seq: number): HistoryEvent => ({ seq, t: seq * 10, type: 'scenario', step: 'step', detail: `event ${seq}` }) as HistoryEvent;

const demo: ClassroomDemoStarted = {
  ref: { builtin: 'gc-pause-breaks-redlock' },
  title: 'GC pause breaks Redlock',
  seed: 7,
  run: { runId: 'run-2', clients: 2, scenario: { id: 'gc', title: 'GC', seed: 7 }, seed: 7, startedAt: 900 },
};

/** The demo's end as the server reports it: a verdict the browser could not have worked out from the two exits it sees. */
const endedDemoRun: RunEnded = {
  runId: 'run-2',
  outcome: { runId: 'run-2', status: 'completed', durationMs: 60, clients: [1, 2].map((client) => ({ client, status: 'exited' as const })) },
  verdict: { ...check([], { final: true }), valid: 'violated' },
};

type Sock = ServerSocket<ClientToServerEvents, ServerToClientEvents>;
interface Fake {
  url: string;
  /** Join into a class whose last run (started by an instructor's command, not a demo) already ended; its end is sent only after the ack. */
  endedDemo: boolean;
  commands: unknown[];
  joins: unknown[];
  /** An instructor joining on the cookie alone is refused (a browser that was never given the token). */
  noCookie: boolean;
  leaves: number;
  sockets: Sock[];
  close(): Promise<void>;
}

async function startFake(): Promise<Fake> {
  const http = createServer();
  const server = new Server<ClientToServerEvents, ServerToClientEvents>(http);
  const fake: Fake = { url: '', endedDemo: false, commands: [], joins: [], noCookie: false, leaves: 0, sockets: [], close: () => new Promise((r) => void server.close(() => r())) };
  server.on('connection', (socket) => {
    fake.sockets.push(socket);
    let role: 'instructor' | 'learner' | null = null;
    socket.on('classroom:join', (input, ack) => {
      fake.joins.push(input);
      if (input.asInstructor && fake.noCookie) return ack(fail('forbidden', 'This browser is not remembered as the instructor: give the instructor token'));
      role = input.instructorToken || input.asInstructor ? 'instructor' : 'learner';
      // As the real hub does: snapshot and history are sent before the ack (plus a push of some other lab).
      socket.emit('lab:snapshot', snapshot());
      socket.emit('history:append', { labId: LAB, from: 0, events: [event(0), event(1)] });
      socket.emit('history:append', { labId: 'someone-elses-lab', from: 0, events: [event(0), event(1), event(2)] });
      const joined: ClassroomJoined = {
        code: CODE,
        name: 'Locks 101',
        link: `/classroom/${CODE}`,
        role,
        learnerId: role === 'learner' ? (input.learnerId ?? 'learner-0123456789abcdef') : null,
        labId: LAB,
        lab: snapshot(),
        follow: null,
        demo: null,
        roster: role === 'instructor' ? [] : null,
        maxLearners: 30,
        instructorAway: null,
        ...(role === 'instructor' ? { instructorTicket: 'ticket.1.nonce.mac' } : {}),
      };
      setTimeout(() => {
        ack(ok(joined));
        if (fake.endedDemo) {
          // As the real server's catch-up does: the history, then the last run's end with its verdict and the run it was.
          const ends = [1, 2].map((client, i) => ({ seq: 2 + i, t: 950 + i, type: 'client', client, event: 'exit', runId: 'run-2' }) as HistoryEvent);
          socket.emit('history:append', { labId: LAB, from: 2, events: ends });
          socket.emit('run:ended', { labId: LAB, info: demo.run, ...endedDemoRun });
        }
      }, 20);
    });
    socket.on('classroom:command', (input, ack) => {
      if (role !== 'instructor') return ack(fail('forbidden', 'Only the instructor may use classroom:command'));
      fake.commands.push(input);
      server.emit('nodes:update', { labId: LAB, nodes: [node(3, 'down')], now: 1_200 });
      ack(ok(node(3, 'down')));
    });
    socket.on('classroom:demo', (_input, ack) => {
      server.emit('classroom:demo', { ...demo, code: CODE });
      ack(ok(demo));
    });
    socket.on('classroom:demos', (_input, ack) => ack(ok([])));
    socket.on('classroom:leave', (_input, ack) => {
      fake.leaves++;
      ack(ok(null));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return fake;
}

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
  removeItem = (k: string) => void this.items.delete(k);
}

let fake: Fake;
const opened: ClassroomClient[] = [];

function connect(credentials: Credentials, storage = new MemoryStorage(), tickets: string[] = []) {
  const labStore: LabStore = createLabStore();
  const classStore: ClassroomStore = createClassroomStore();
  const client = new ClassroomClient({
    labStore,
    classStore,
    storage,
    rememberInstructor: async (ticket) => void tickets.push(ticket),
    ackTimeoutMs: 2_000,
    openSocket: () => io(fake.url, { autoConnect: false, transports: ['websocket'], reconnectionDelay: 50 }),
  });
  opened.push(client);
  client.start(credentials);
  return { labStore, classStore, client, storage };
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 10 });

beforeEach(async () => {
  fake = await startFake();
});
afterEach(async () => {
  for (const c of opened.splice(0)) c.stop();
  await fake.close();
});

describe('ClassroomClient', () => {
  it("keeps the history that arrives before the join's ack, and only the class lab's", async () => {
    const { labStore, classStore } = connect({ role: 'learner', code: CODE, name: 'Ada', learnerId: null });
    await until(() => expect(classStore.getState().status).toBe('joined'));
    const lab = labStore.getState();
    expect(lab.labId).toBe(LAB);
    expect(lab.nodeIds).toEqual([1, 2, 3]);
    expect(lab.history.map((e) => e.seq)).toEqual([0, 1]);
    expect(classStore.getState().info).toMatchObject({ role: 'learner', learnerId: 'learner-0123456789abcdef' });
  });

  it("sends the instructor's lab commands as classroom:command, and shows the pushes", async () => {
    const { labStore, classStore, client } = connect({ role: 'instructor', code: CODE, token: 't' });
    await until(() => expect(classStore.getState().status).toBe('joined'));
    const result = await client.lab.fault('node-kill', { node: 3 });
    expect(result.ok).toBe(true);
    expect(fake.commands).toEqual([{ command: 'node:kill', input: { node: 3 } }]);
    await until(() => expect(labStore.getState().nodes[3]?.state).toBe('down'));
    // A command the class's lab does not take is refused in the browser, not sent.
    const reset = await client.lab.resetLab();
    expect(reset).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fake.commands).toHaveLength(1);
  });

  it("shows a learner's refused command as an error, and nothing is applied", async () => {
    const { labStore, classStore, client } = connect({ role: 'learner', code: CODE, name: 'Ada', learnerId: null });
    await until(() => expect(classStore.getState().status).toBe('joined'));
    const result = await client.lab.fault('node-kill', { node: 3 });
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(labStore.getState().errors.map((e) => e.command)).toEqual(['Kill Node 3']);
    expect(labStore.getState().nodes[3]?.state).toBe('up');
  });

  it('a demo replaces the last run in the lab view', async () => {
    const { labStore, classStore, client } = connect({ role: 'instructor', code: CODE, token: 't' });
    await until(() => expect(classStore.getState().status).toBe('joined'));
    labStore.getState().actions.runStarted({ runId: 'run-1', clients: 2, scenario: null, seed: 1, startedAt: 100 });
    labStore.getState().actions.runEnded({
      runId: 'run-1',
      outcome: { runId: 'run-1', status: 'completed', clients: [], durationMs: 10 },
      verdict: { valid: 'held' } as never,
    });
    const result = await client.runDemo({ ref: demo.ref, title: demo.title }, 7);
    expect(result.ok).toBe(true);
    const run = labStore.getState().run;
    expect(run).toMatchObject({ phase: 'running', info: { runId: 'run-2' }, verdict: null, ended: null });
    expect(classStore.getState().demo).toMatchObject({ title: 'GC pause breaks Redlock', seed: 7 });
  });

  it('a learner keeps their id to rejoin as themselves, and loses the seat when the class ends', async () => {
    const first = connect({ role: 'learner', code: CODE, name: 'Ada', learnerId: null });
    await until(() => expect(first.classStore.getState().status).toBe('joined'));
    expect(JSON.parse(first.storage.getItem(learnerKey(CODE)) ?? 'null')).toEqual({ name: 'Ada', learnerId: 'learner-0123456789abcdef' });
    for (const s of fake.sockets) s.emit('classroom:ended', { code: CODE, reason: 'the instructor ended the class' });
    await until(() => expect(first.classStore.getState().status).toBe('ended'));
    expect(first.classStore.getState().message).toBe('the instructor ended the class');
    expect(first.storage.getItem(learnerKey(CODE))).toBeNull();
  });
});

describe('ClassroomClient: the instructor remembered, a learner removed, the instructor away', () => {
  it('an instructor with no token in the tab joins on the cookie, and trades each ticket for it', async () => {
    const tickets: string[] = [];
    const { classStore } = connect({ role: 'instructor', code: CODE, token: null }, new MemoryStorage(), tickets);
    await until(() => expect(classStore.getState().status).toBe('joined'));
    expect(fake.joins).toEqual([{ code: CODE, asInstructor: true }]);
    expect(classStore.getState().info?.role).toBe('instructor');
    await until(() => expect(tickets).toEqual(['ticket.1.nonce.mac']));
  });

  it('without the cookie, the console asks for the token, with no error shown', async () => {
    fake.noCookie = true;
    const { classStore, client } = connect({ role: 'instructor', code: CODE, token: null });
    await until(() => expect(classStore.getState().status).toBe('idle'));
    expect(classStore.getState().message).toBeNull();
    client.join({ role: 'instructor', code: CODE, token: 't' });
    await until(() => expect(classStore.getState().status).toBe('joined'));
    expect(fake.joins.at(-1)).toEqual({ code: CODE, instructorToken: 't' });
  });

  it('a removed learner is told in words, leaves, forgets the seat and stops re-joining', async () => {
    const { classStore, labStore, storage } = connect({ role: 'learner', code: CODE, name: 'Ada', learnerId: null });
    await until(() => expect(classStore.getState().status).toBe('joined'));
    const reason = 'The instructor removed you from this class; ask them if you should be in it.';
    for (const s of fake.sockets) s.emit('classroom:removed', { code: CODE, reason, words: { key: 'refusals.classroom.removed', values: {} } });
    await until(() => expect(classStore.getState().status).toBe('removed'));
    expect(classStore.getState()).toMatchObject({ message: reason, messageWords: { key: 'refusals.classroom.removed' } });
    expect(storage.getItem(learnerKey(CODE))).toBeNull();
    expect(labStore.getState().connection).toBe('closed');
    await until(() => expect(fake.leaves).toBe(1));
    // A reconnect does not take the tab back in.
    const joins = fake.joins.length;
    for (const s of fake.sockets) s.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.joins).toHaveLength(joins);
  });

  it("shows when the instructor left, until when the class stays open, and that they are back", async () => {
    const { classStore } = connect({ role: 'learner', code: CODE, name: 'Ada', learnerId: null });
    await until(() => expect(classStore.getState().status).toBe('joined'));
    expect(classStore.getState().instructor).toEqual({ kind: 'here' });
    const before = Date.now();
    for (const s of fake.sockets) s.emit('classroom:instructor', { code: CODE, away: { endsInMs: 900_000 } });
    await until(() => expect(classStore.getState().instructor.kind).toBe('away'));
    const away = classStore.getState().instructor;
    expect(away.kind === 'away' && away.endsAt - before).toBeGreaterThanOrEqual(900_000);
    expect(away.kind === 'away' && away.endsAt - Date.now()).toBeLessThanOrEqual(900_000);
    // Another class's news is not ours.
    for (const s of fake.sockets) s.emit('classroom:instructor', { code: 'ZZZZZ-ZZZZZ-ZZZZZ', away: null });
    for (const s of fake.sockets) s.emit('classroom:instructor', { code: CODE, away: null });
    await until(() => expect(classStore.getState().instructor).toEqual({ kind: 'back' }));
  });
});

describe('ClassroomClient joining after a demo ended', () => {
  it("shows the class's last run as the server sent it (the run, its end and verdict), and works out none of its own", async () => {
    fake.endedDemo = true;
    const { labStore, classStore } = connect({ role: 'learner', code: CODE, name: 'Ada', learnerId: null });
    await until(() => expect(classStore.getState().status).toBe('joined'));
    await until(() => expect(labStore.getState().run.phase).toBe('ended'));
    const run = labStore.getState().run;
    expect(run.info?.runId).toBe('run-2');
    expect(run.ended?.outcome.clients.map((c) => c.status)).toEqual(['exited', 'exited']);
    // The history alone shows no overlap; the server's checker (with the run's origin and the lesson's settings) said otherwise.
    expect(run.verdict).toEqual(endedDemoRun.verdict);
  });
});

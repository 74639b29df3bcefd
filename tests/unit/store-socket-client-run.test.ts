/**
 * The socket client's run commands against a stand-in server (real
 * socket.io over loopback, no Redis, no sandbox): run:start and its pushes
 * folded into the store, a refused start, client faults, and a re-attached
 * lab of the wrong shape swapped for the lesson's topology.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Server } from 'socket.io';
import { io } from 'socket.io-client';
import { check } from '@/lib/checker';
import type { LabSnapshot, Topology } from '@/lib/cluster';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { fail, ok } from '@/lib/result';
import type { RunInfo } from '@/lib/run';
import { createLabStore, type LabStore } from '@/components/lab/lab-store';
import { LAB_ID_STORAGE_KEY, LAB_PAGE_STORAGE_KEY, LabSocketClient } from '@/components/lab/socket-client';
import { history } from './helpers/history-builder';

const snapshot = (labId: string, topology: Topology): LabSnapshot => ({ labId, topology, clients: 3, nodes: [], links: [], replication: null, now: 100 });
const violated = check(history().at(0).enter(1).at(5).enter(2).at(10).exit(1).at(20).exit(2).build());

interface Fake {
  url: string;
  joins: unknown[];
  resets: unknown[];
  pauses: unknown[];
  refuseRuns: boolean;
  close(): Promise<void>;
}

async function startFake(existing: Topology): Promise<Fake> {
  const http = createServer();
  const server = new Server<ClientToServerEvents, ServerToClientEvents>(http);
  const fake: Fake = { url: '', joins: [], resets: [], pauses: [], refuseRuns: false, close: () => new Promise((r) => void server.close(() => r())) };
  server.on('connection', (socket) => {
    socket.on('lab:join', (input, ack) => fake.joins.push(input) && ack(ok(snapshot(input.labId ?? 'lab-new-0001', input.labId ? existing : { kind: 'masters', nodes: 5, persistence: 'none' }))));
    socket.on('lab:reset', (input, ack) => {
      fake.resets.push(input);
      ack(ok(snapshot('lab-reset-0001', { kind: 'replicated', nodes: 2, persistence: 'none' })));
    });
    socket.on('run:start', (input, ack) => {
      if (fake.refuseRuns) return ack(fail('invalid-input', 'the program is empty'));
      const info: RunInfo = { runId: 'run-1', clients: input.clients ?? 3, scenario: null, seed: input.seed ?? 1, startedAt: 1_000 };
      ack(ok(info));
      const labId = 'lab-new-0001';
      socket.emit('run:started', { ...info, labId });
      socket.emit('run:verdict', { runId: 'run-0', verdict: violated, labId }); // an older run: ignored
      socket.emit('run:verdict', { runId: 'run-1', verdict: { ...violated, final: false }, labId: 'another-lab' }); // another lab: ignored
      socket.emit('run:diagnostic', { runId: 'run-1', labId, severity: 'error', kind: 'runtime', message: 'boom', line: 4, column: 2, client: 2 });
      socket.emit('run:ended', { runId: 'run-1', labId, verdict: violated, outcome: { runId: 'run-1', status: 'completed', clients: [], durationMs: 40 } });
    });
    socket.on('client:pause', (input, ack) => {
      fake.pauses.push(input);
      ack(ok({ client: input.client }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return fake;
}

let fake: Fake | null = null;
let client: LabSocketClient | null = null;
afterEach(async () => {
  client?.stop();
  await fake?.close();
  fake = null;
  client = null;
});

function connect(store: LabStore, storage: Map<string, string>, want?: ConstructorParameters<typeof LabSocketClient>[0]['want'], page?: string) {
  const url = fake?.url ?? '';
  client = new LabSocketClient({
    store,
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) },
    openSocket: () => io(url, { autoConnect: false, transports: ['websocket'] }),
    ...(want ? { want } : {}),
    ...(page ? { page } : {}),
  });
  client.start();
  return client;
}

describe('LabSocketClient runs', () => {
  it('starts a run and folds its pushes, ignoring other runs and labs', async () => {
    fake = await startFake({ kind: 'masters', nodes: 5, persistence: 'none' });
    const store = createLabStore();
    const lab = connect(store, new Map());
    await vi.waitFor(() => expect(store.getState().connection).toBe('ready'));
    const started = lab.startRun({ code: 'x', scenario: null, checker: null, clients: 2 });
    expect(store.getState().run.phase).toBe('starting');
    expect((await started).ok).toBe(true);
    await vi.waitFor(() => expect(store.getState().run.phase).toBe('ended'));
    const run = store.getState().run;
    expect(run.info?.clients).toBe(2);
    expect(run.verdict).toMatchObject({ valid: 'violated', final: true });
    expect(run.diagnostics).toEqual([expect.objectContaining({ line: 4, column: 2, client: 2, message: 'boom' })]);
    expect(run.code).toBe('x');
  });

  it('shows a refused start in words', async () => {
    fake = await startFake({ kind: 'masters', nodes: 5, persistence: 'none' });
    fake.refuseRuns = true;
    const store = createLabStore();
    const lab = connect(store, new Map());
    await vi.waitFor(() => expect(store.getState().connection).toBe('ready'));
    await lab.startRun({ code: '', scenario: null, checker: null });
    expect(store.getState().run).toMatchObject({ phase: 'ended', startError: 'the program is empty' });
  });

  it('sends client faults with their button names', async () => {
    fake = await startFake({ kind: 'masters', nodes: 5, persistence: 'none' });
    const store = createLabStore();
    const lab = connect(store, new Map());
    await vi.waitFor(() => expect(store.getState().connection).toBe('ready'));
    expect((await lab.fault('client-pause', { client: 1, durationMs: 1_500.4 })).ok).toBe(true);
    expect(fake.pauses).toEqual([{ client: 1, durationMs: 1_500 }]);
  });

  it('swaps a re-attached lab of another shape for the topology the view wants', async () => {
    fake = await startFake({ kind: 'masters', nodes: 5, persistence: 'none' });
    const store = createLabStore();
    const storage = new Map([[LAB_ID_STORAGE_KEY, 'lab-old-00001']]);
    connect(store, storage, { topology: { kind: 'replicated' } });
    await vi.waitFor(() => expect(store.getState().connection).toBe('ready'));
    expect(fake.resets).toEqual([{ topology: { kind: 'replicated' } }]);
    expect(store.getState().topology?.kind).toBe('replicated');
  });

  it('asks for its lab rebuilt clean when the tab arrives from another page, and re-attaches as it was on a reload', async () => {
    fake = await startFake({ kind: 'masters', nodes: 5, persistence: 'none' });
    const storage = new Map([
      [LAB_ID_STORAGE_KEY, 'lab-old-00001'],
      [LAB_PAGE_STORAGE_KEY, 'naive-lock'],
    ]);
    const moved = createLabStore();
    connect(moved, storage, { clients: 3 }, 'playground');
    await vi.waitFor(() => expect(moved.getState().connection).toBe('ready'));
    expect(fake.joins).toEqual([{ labId: 'lab-old-00001', clients: 3, clean: true }]);
    expect(storage.get(LAB_PAGE_STORAGE_KEY)).toBe('playground');
    client?.stop();

    // A reload of the same page: the same lab, as it was.
    const reloaded = createLabStore();
    connect(reloaded, storage, { clients: 3 }, 'playground');
    await vi.waitFor(() => expect(reloaded.getState().connection).toBe('ready'));
    expect(fake.joins[1]).toEqual({ labId: 'lab-old-00001', clients: 3 });
  });
});

/**
 * The browser's socket client against a small stand-in lab server (real
 * socket.io over loopback, no Redis): joining, re-attaching by the stored lab
 * id, "lab server is full", command Results and errors, re-join after a
 * reconnect. The real server is covered by the realtime integration tests.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io } from 'socket.io-client';
import type { LabSnapshot, NodeView } from '@/lib/cluster';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { fail, ok } from '@/lib/result';
import { createLabStore, type LabStore } from '@/components/lab/lab-store';
import { LAB_ID_STORAGE_KEY, LabSocketClient, type LabIdStorage } from '@/components/lab/socket-client';

const node = (id: number, patch: Partial<NodeView> = {}): NodeView => ({
  id,
  label: `Node ${id}`,
  port: 41_000 + id,
  state: 'up',
  role: 'master',
  replicaOf: null,
  persistence: 'none',
  restartDueAt: null,
  keys: [],
  keysTruncated: false,
  clockJumpMs: 0,
  intervention: null,
  ...patch,
});

const snapshotOf = (labId: string): LabSnapshot => ({
  labId,
  topology: { kind: 'masters', nodes: 2, persistence: 'none' },
  clients: 1,
  nodes: [node(1), node(2)],
  links: [],
  replication: null,
  now: 500,
});

class MemoryStorage implements LabIdStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** A stand-in for server/realtime: just enough protocol to exercise the client. */
interface FakeLabServer {
  url: string;
  joins: Array<{ labId: string | undefined }>;
  full: boolean;
  /** This browser's labs are all in other tabs: joins are refused as the real server words it. */
  atShare: boolean;
  takes: Array<{ topology?: unknown; place?: string | undefined }>;
  /** The take's refusal, if it is refused (every lab busy). */
  takeRefusal: string | null;
  sockets: Set<ServerSocket<ClientToServerEvents, ServerToClientEvents>>;
  close(): Promise<void>;
}

async function startFakeLabServer(): Promise<FakeLabServer> {
  const http: HttpServer = createServer();
  const ioServer = new Server<ClientToServerEvents, ServerToClientEvents>(http);
  const labs = new Set<string>();
  let nextLab = 0;
  const fake: FakeLabServer = {
    url: '',
    joins: [],
    full: false,
    atShare: false,
    takes: [],
    takeRefusal: null,
    sockets: new Set(),
    close: () =>
      new Promise<void>((resolve) => {
        ioServer.close(() => resolve());
      }),
  };

  ioServer.on('connection', (socket) => {
    fake.sockets.add(socket);
    socket.on('disconnect', () => fake.sockets.delete(socket));
    let joined: string | null = null;
    socket.on('lab:join', (input, ack) => {
      fake.joins.push({ labId: input.labId });
      if (fake.full) return ack(fail('lab-full', 'The lab server is full (2 of 2 labs in use).'));
      if (fake.atShare)
        return ack(
          fail('lab-full', { message: 'This browser already has 2 labs open in other tabs; close one and try again.', words: { key: 'refusals.lab.perBrowser', values: { limit: 2 } } }),
        );
      if (input.labId !== undefined && !labs.has(input.labId)) return ack(fail('not-found', 'No such lab.'));
      const labId = input.labId ?? `lab-${String(++nextLab).padStart(8, '0')}`;
      labs.add(labId);
      joined = labId;
      ack(ok(snapshotOf(labId)));
    });
    socket.on('lab:take', (input, ack) => {
      fake.takes.push(input);
      if (fake.takeRefusal) return ack(fail('conflict', fake.takeRefusal));
      joined = 'lab-taken0001';
      labs.add(joined);
      ack(ok(snapshotOf(joined)));
    });
    socket.on('node:kill', ({ node: id }, ack) => {
      if (!joined) return ack(fail('no-lab', 'Join a lab first.'));
      const down = node(id, { state: 'down' });
      socket.emit('nodes:update', { labId: joined, nodes: [down], now: 700 });
      ack(ok(down));
    });
    socket.on('node:pause', ({ node: id }, ack) => ack(fail('conflict', `Node ${id} is already paused.`)));
    socket.on('node:resume', () => {
      // Never acknowledged: the client must give up after its timeout.
    });
  });

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return fake;
}

let server: FakeLabServer;
const clients: LabSocketClient[] = [];

function connectClient(storage: LabIdStorage, ackTimeoutMs = 2_000, place?: string): { store: LabStore; client: LabSocketClient } {
  const store = createLabStore();
  const client = new LabSocketClient({
    store,
    storage,
    ackTimeoutMs,
    ...(place ? { place: () => place } : {}),
    openSocket: () => io(server.url, { autoConnect: false, transports: ['websocket'], reconnectionDelay: 50 }),
  });
  clients.push(client);
  client.start();
  return { store, client };
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 10 });

beforeEach(async () => {
  server = await startFakeLabServer();
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.stop();
  await server.close();
});

describe('LabSocketClient', () => {
  it('joins a new lab, shows its nodes and keeps the lab id for the tab', async () => {
    const storage = new MemoryStorage();
    const { store } = connectClient(storage);
    await until(() => expect(store.getState().connection).toBe('ready'));
    expect(store.getState().nodeIds).toEqual([1, 2]);
    expect(storage.getItem(LAB_ID_STORAGE_KEY)).toBe(store.getState().labId);
    expect(server.joins).toEqual([{ labId: undefined }]);
  });

  it('re-attaches to the stored lab after a reload', async () => {
    const storage = new MemoryStorage();
    const first = connectClient(storage);
    await until(() => expect(first.store.getState().connection).toBe('ready'));
    const labId = first.store.getState().labId;
    first.client.stop();

    const reloaded = connectClient(storage);
    await until(() => expect(reloaded.store.getState().connection).toBe('ready'));
    expect(reloaded.store.getState().labId).toBe(labId);
    expect(server.joins.at(-1)).toEqual({ labId });
  });

  it('starts a new lab when the stored one is gone', async () => {
    const storage = new MemoryStorage();
    storage.setItem(LAB_ID_STORAGE_KEY, 'lab-gone-long-ago');
    const { store } = connectClient(storage);
    await until(() => expect(store.getState().connection).toBe('ready'));
    expect(server.joins).toEqual([{ labId: 'lab-gone-long-ago' }, { labId: undefined }]);
    expect(storage.getItem(LAB_ID_STORAGE_KEY)).toBe(store.getState().labId);
  });

  it('says so when the lab server is full, and joins on "try again" once there is room', async () => {
    server.full = true;
    const { store, client } = connectClient(new MemoryStorage());
    await until(() => expect(store.getState().connection).toBe('full'));
    expect(store.getState().connectionMessage).toContain('full');

    server.full = false;
    client.join();
    await until(() => expect(store.getState().connection).toBe('ready'));
  });

  it('returns command Results and puts refusals and timeouts in the store', async () => {
    const { store, client } = connectClient(new MemoryStorage(), 300);
    await until(() => expect(store.getState().connection).toBe('ready'));

    const killed = await client.fault('node-kill', { node: 2 });
    expect(killed.ok && killed.value.state).toBe('down');
    await until(() => expect(store.getState().nodes[2]?.state).toBe('down'));
    expect(store.getState().errors).toEqual([]);

    const paused = await client.fault('node-pause', { node: 1 });
    expect(paused.ok).toBe(false);
    expect(store.getState().errors.at(-1)).toMatchObject({ command: 'Pause Node 1', code: 'conflict' });

    const resumed = await client.fault('node-resume', { node: 1 });
    expect(resumed).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(store.getState().errors.at(-1)).toMatchObject({ command: 'Resume Node 1', code: 'timeout' });
    expect(store.getState().pending).toEqual({});
  });

  it('re-joins the same lab after the connection drops', async () => {
    const { store } = connectClient(new MemoryStorage());
    await until(() => expect(store.getState().connection).toBe('ready'));
    const labId = store.getState().labId;
    for (const socket of server.sockets) socket.disconnect(true);
    await until(() => expect(server.joins).toHaveLength(2));
    await until(() => expect(store.getState().connection).toBe('ready'));
    expect(server.joins[1]).toEqual({ labId });
  });

  it("shows one message when the browser's labs are all in other tabs, and takes one here on 'Use the lab here'", async () => {
    server.atShare = true;
    const storage = new MemoryStorage();
    const { store, client } = connectClient(storage, 2_000, 'Playground · Lock Lab');
    await until(() => expect(store.getState().connection).toBe('full'));
    // The browser's own situation, not the server's English line: the page words it once (lab-status.tsx).
    expect(store.getState().labElsewhere).toEqual({ kind: 'share' });
    expect(store.getState().connectionMessage).toBeNull();

    server.takeRefusal = 'Every lab of this browser (2) has a run or a check going in another tab';
    client.useLabHere();
    await until(() => expect(store.getState().connectionMessage).toBe(server.takeRefusal));
    expect(store.getState()).toMatchObject({ connection: 'full', labElsewhere: { kind: 'share' } });

    server.takeRefusal = null;
    client.useLabHere();
    await until(() => expect(store.getState().connection).toBe('ready'));
    expect(server.takes.at(-1)).toEqual({ place: 'Playground · Lock Lab' });
    expect(store.getState()).toMatchObject({ labId: 'lab-taken0001', labElsewhere: null });
    expect(storage.getItem(LAB_ID_STORAGE_KEY)).toBe('lab-taken0001');
  });

  it('a tab whose lab moved says where it went, forgets the lab, and does not take it back on a reconnect', async () => {
    const storage = new MemoryStorage();
    const { store } = connectClient(storage);
    await until(() => expect(store.getState().connection).toBe('ready'));
    const labId = store.getState().labId!;
    for (const socket of server.sockets) socket.emit('lab:moved', { labId, to: 'Lesson 3 · TTL and the watchdog' });
    await until(() => expect(store.getState().connection).toBe('moved'));
    expect(store.getState().labElsewhere).toEqual({ kind: 'moved', to: 'Lesson 3 · TTL and the watchdog' });
    expect(storage.getItem(LAB_ID_STORAGE_KEY)).toBeNull();
    // Its nodes are another tab's now: not shown here.
    expect(store.getState()).toMatchObject({ labId: null, nodeIds: [] });

    const joins = server.joins.length;
    for (const socket of server.sockets) socket.disconnect(true);
    await until(() => expect(server.sockets.size).toBe(1));
    expect(server.joins).toHaveLength(joins);
    expect(store.getState().connection).toBe('moved');
  });

  it('answers a command sent while offline without emitting it', async () => {
    const store = createLabStore();
    const client = new LabSocketClient({ store, storage: null });
    const result = await client.fault('node-kill', { node: 1 });
    expect(result).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect(store.getState().errors).toHaveLength(1);
  });
});

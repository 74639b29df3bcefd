/**
 * Starting a class outside React (components/classroom/create-class.ts)
 * against a stand-in server (real socket.io over loopback): the answer the
 * page renders for each thing the server can say, the tab's saved token, the
 * ticket traded for the instructor cookie, and the socket closed after.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Server } from 'socket.io';
import { io } from 'socket.io-client';
import type { ClassroomJoined } from '@/lib/classroom';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { fail, ok } from '@/lib/result';
import { createClass, type CreateClassDeps } from '@/components/classroom/create-class';
import { INSTRUCTOR_TOKEN_KEY } from '@/components/classroom/classroom-state';

const CODE = 'K7M2Q-9XR4T-HB3WZ';
type Answering = 'ok' | 'forbidden' | 'full' | 'silent';

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
  removeItem = (k: string) => void this.items.delete(k);
}

let http: ReturnType<typeof createServer>;
let server: Server<ClientToServerEvents, ServerToClientEvents>;
let url = '';
let answering: Answering = 'ok';
let connected = 0;

beforeEach(async () => {
  http = createServer();
  server = new Server<ClientToServerEvents, ServerToClientEvents>(http);
  connected = 0;
  server.on('connection', (socket) => {
    connected++;
    socket.on('disconnect', () => connected--);
    socket.on('classroom:create', (input, ack) => {
      if (answering === 'silent') return;
      if (answering === 'forbidden') return ack(fail('forbidden', 'That is not the instructor token'));
      if (answering === 'full') return ack(fail('lab-full', 'The server has no room for another lab'));
      const joined = { code: CODE, name: input.name, instructorTicket: 'ticket.1.nonce.mac' } as ClassroomJoined;
      ack(ok(joined));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => void server.close(() => resolve()));
});

function deps(over: Partial<CreateClassDeps> = {}): CreateClassDeps & { storage: MemoryStorage; tickets: string[] } {
  const tickets: string[] = [];
  return {
    openSocket: () => io(url, { autoConnect: false, reconnection: false, transports: ['websocket'] }),
    identity: async () => undefined,
    storage: new MemoryStorage(),
    rememberInstructor: async (ticket) => void tickets.push(ticket),
    tickets,
    ...over,
  } as CreateClassDeps & { storage: MemoryStorage; tickets: string[] };
}

const input = { token: 'the-token', name: 'Locks 101' };
const closedSockets = () => expect.poll(() => connected).toBe(0);

describe('createClass', () => {
  it('creates the class, keeps the token in the tab, trades the ticket for the cookie and closes its socket', async () => {
    answering = 'ok';
    const d = deps();
    expect(await createClass(input, d.storage, d)).toEqual({ ok: true, code: CODE, remembered: true });
    expect(d.storage.getItem(INSTRUCTOR_TOKEN_KEY)).toBe('the-token');
    expect(d.tickets).toEqual(['ticket.1.nonce.mac']);
    await closedSockets();
  });

  it('says when the browser could not be remembered, and still opens the class with the tab’s token', async () => {
    answering = 'ok';
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const d = deps({ rememberInstructor: async () => Promise.reject(new Error('HTTP 403')) });
    expect(await createClass(input, d.storage, d)).toEqual({ ok: true, code: CODE, remembered: false });
    // Not swallowed: the page's console says why, with the error.
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not remember the instructor'), expect.objectContaining({ message: 'HTTP 403' }));
    warn.mockRestore();
    expect(d.storage.getItem(INSTRUCTOR_TOKEN_KEY)).toBe('the-token');
  });

  it('a wrong token is "forbidden", another refusal comes with the server’s error, and nothing is saved', async () => {
    answering = 'forbidden';
    const d = deps();
    expect(await createClass(input, d.storage, d)).toEqual({ ok: false, reason: 'forbidden' });
    answering = 'full';
    const answer = await createClass(input, d.storage, d);
    expect(answer).toMatchObject({ ok: false, reason: 'refused', error: { code: 'lab-full' } });
    expect(d.storage.items.size).toBe(0);
    expect(d.tickets).toEqual([]);
    await closedSockets();
  });

  it('a server that does not answer in time is "slow"; one that cannot be reached or an identity that cannot be bought is "unreachable"', async () => {
    answering = 'silent';
    expect(await createClass(input, null, deps({ timeoutMs: 200 }))).toEqual({ ok: false, reason: 'slow' });
    await closedSockets();
    const noServer = deps({ openSocket: () => io('http://127.0.0.1:1', { autoConnect: false, reconnection: false, transports: ['websocket'] }) });
    expect(await createClass(input, null, noServer)).toMatchObject({ ok: false, reason: 'unreachable' });
    const noIdentity = deps({ identity: async () => Promise.reject(new Error('the identity could not be bought')) });
    expect(await createClass(input, null, noIdentity)).toEqual({ ok: false, reason: 'unreachable', detail: 'the identity could not be bought' });
  });
});

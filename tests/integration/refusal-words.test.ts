/**
 * A refusal crosses the socket as data: its English `message` as before, and its `words`, which a page renders
 * in its own language. A real server and lab, as a browser tab sees them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { tabSoon } from '../helpers/browser-identity';
import { afterAll, beforeAll, expect, it } from 'vitest';
import ar from '@/messages/ar/refusals.json';
import arChecker from '@/messages/ar/checker.json';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { refusal } from '@/lib/refusal-words';
import { render } from '@/lib/words';
import { createLabServer, type RunningLabServer } from '@/server/app-server';
import { configFromEnv } from '@/server/config';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

let server: RunningLabServer;
let tab: Client;
const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-words-'));
const arabic = { refusals: ar, checker: arChecker };

beforeAll(async () => {
  server = await createLabServer(configFromEnv({ port: 0, web: false, maxLabs: 2, warmLabs: 0, runRoot }));
  tab = tabSoon(server.url);
});
afterAll(async () => {
  tab?.close();
  await server?.close();
  fs.rmSync(runRoot, { recursive: true, force: true });
});

it('sends a refused fault with its English message and its words, which render in Arabic', async () => {
  const joined = await tab.emitWithAck('lab:join', {});
  if (!joined.ok) throw new Error(joined.error.message);

  const restart = await tab.emitWithAck('node:restart', { node: 1 });
  expect(restart).toEqual({
    ok: false,
    error: { code: 'conflict', message: 'Node 1 is up; kill it before restarting it', words: { key: 'refusals.node.restartNotDown', values: { node: { node: 1 }, state: 'up' } } },
  });
  if (!restart.ok && restart.error.words) expect(render(restart.error.words, 'ar', arabic)).toBe('العقدة 1 تعمل؛ اقتلها قبل إعادة تشغيلها');

  const pause = await tab.emitWithAck('client:pause', { client: 1 });
  expect(pause).toMatchObject({ ok: false, error: { code: 'conflict', message: 'No program is running: press Run first', words: { key: 'refusals.client.noProgram' } } });

  // A malformed message is answered in English only: the issues are zod's, for whoever wrote the script.
  const malformed = await tab.emitWithAck('node:kill', { node: 'three' } as never);
  expect(malformed.ok).toBe(false);
  if (!malformed.ok) {
    expect(malformed.error.code).toBe('invalid-input');
    expect(malformed.error.words).toBeUndefined();
  }

  // The lab closing says why, in words too.
  const closed = new Promise<{ labId: string; reason: string; words?: unknown }>((resolve) => tab.once('lab:closed', resolve));
  await server.labs.destroy(joined.value.labId, refusal('closed.idle'));
  expect(await closed).toEqual({
    labId: joined.value.labId,
    reason: 'closed after being idle with no tab connected',
    words: { key: 'refusals.closed.idle', values: {} },
  });
});

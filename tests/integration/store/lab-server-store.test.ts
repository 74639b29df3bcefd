/**
 * The lab server and its store, as `npm start` runs them: the store opens at the server's start, a run shared there is
 * still there after a restart on the same data folder (the cookie secret kept, so its sharer is still its owner), and
 * a second server on a folder in use does not start: it says why in one sentence and leaves the folder to the first.
 * Uses Debian's Postgres nowhere: the default store, PGlite, in a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createLabServer, type RunningLabServer } from '@/server/app-server';
import { configFromEnv, type ServerConfig } from '@/server/config';
import { StoreOpenError } from '@/server/store/store';
import { browserCookie } from '@/tests/helpers/browser-identity';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-server-store-'));
const dataDir = path.join(root, 'data');
const config = (name: string): ServerConfig =>
  configFromEnv({ port: 0, web: false, sandbox: false, maxLabs: 1, warmLabs: 0, runRoot: path.join(root, name), cookieSecret: 'kept-across-restarts', identityWorkBits: 0, store: { kind: 'pglite', dataDir } });
const servers: RunningLabServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  fs.rmSync(root, { recursive: true, force: true });
}, 60_000);

const RUN = JSON.stringify({ format: 'lock-lab-run', version: 1, lesson: 'naive-lock', history: [{ seq: 1, t: 5, type: 'lock', client: 1 }] });

it('opens the store at start, keeps a shared run across a restart, and refuses a second server on the same folder', async () => {
  const first = await createLabServer(config('first'));
  servers.push(first);
  expect(first.store?.where).toBe(`PGlite in ${dataDir}`);
  const cookie = await browserCookie(first.url);
  const shared = await fetch(`${first.url}/api/runs`, { method: 'POST', headers: { cookie, origin: first.url, 'content-type': 'application/json' }, body: RUN });
  expect(shared.status).toBe(201);
  const { value } = (await shared.json()) as { value: { id: string } };

  // A second server on the folder in use: one sentence, and the first keeps serving.
  const error = await createLabServer(config('second')).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreOpenError);
  expect((error as Error).message).toBe(
    `its store (PGlite in ${dataDir}) cannot be opened: another Lock Lab server (PID ${process.pid}) is using the data folder ${dataDir}; give this one its own LOCKLAB_DATA_DIR, or a DATABASE_URL`,
  );
  expect((await fetch(`${first.url}/api/runs/${value.id}`)).status).toBe(200);

  // A restart: the folder is released on close, and the run is there for its owner.
  await first.close();
  servers.length = 0;
  const restarted = await createLabServer(config('restarted'));
  servers.push(restarted);
  const again = await fetch(`${restarted.url}/api/runs/${value.id}`, { headers: { cookie } });
  expect(await again.json()).toEqual({ ok: true, value: { yours: true, run: JSON.parse(RUN) } });
}, 300_000);

it("says the store's size and latency on /metrics: runs and bytes kept, queries and transactions timed", async () => {
  const server = servers[0] ?? (await createLabServer(config('metrics')));
  if (!servers.includes(server)) servers.push(server);
  const metric = async (name: string): Promise<number> => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
    if (!line) throw new Error(`/metrics has no ${name}`);
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const runs = await metric('locklab_store_shared_runs{store="pglite"}');
  const bytes = await metric('locklab_store_shared_run_bytes{store="pglite"}');
  const transactions = await metric('locklab_store_query_seconds_count{store="pglite",kind="transaction"}');
  const cookie = await browserCookie(server.url);
  const shared = await fetch(`${server.url}/api/runs`, { method: 'POST', headers: { cookie, origin: server.url, 'content-type': 'application/json' }, body: RUN });
  expect(shared.status).toBe(201);
  expect(await metric('locklab_store_shared_runs{store="pglite"}')).toBe(runs + 1);
  expect(await metric('locklab_store_shared_run_bytes{store="pglite"}')).toBe(bytes + Buffer.byteLength(RUN));
  // The share is one transaction (its bounds and its insert under one lock).
  expect(await metric('locklab_store_query_seconds_count{store="pglite",kind="transaction"}')).toBe(transactions + 1);
  expect(await metric('locklab_store_query_seconds_count{store="pglite",kind="query"}')).toBeGreaterThan(0);
}, 300_000);

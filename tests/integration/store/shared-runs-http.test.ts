/**
 * The shared-run door (`/api/runs`, server/store/shared-runs-http.ts) over real HTTP, with browser identities bought
 * as pages buy them and a PGlite store in a temporary folder: every refusal is a Result in words and changes nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BrowserIdentities } from '@/server/realtime/browser-identity';
import { sharedRunRoutes } from '@/server/store/shared-runs-http';
import { openStore, type Store } from '@/server/store/store';
import { browserCookie } from '@/tests/helpers/browser-identity';
import type { LabError } from '@/lib/result';

const BOUNDS = { maxRunBytes: 4_000, runsPerOwner: 2, bytesPerOwner: 100_000, totalBytes: 1_000_000 };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-store-http-'));
let store: Store;
let server: http.Server;
let url: string;
let alice: string;
let bob: string;

beforeAll(async () => {
  const opened = await openStore({ kind: 'pglite', dataDir }, BOUNDS);
  if (!opened) throw new Error('no store');
  store = opened;
  const identities = new BrowserIdentities({ secret: 'test-secret', workBits: 0 });
  const door = sharedRunRoutes({ store, identities, allowedOrigins: [], bounds: BOUNDS });
  server = http.createServer((req, res) => {
    if (identities.handle(req, res)) return;
    if (door(req, res)) return;
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  alice = await browserCookie(url);
  bob = await browserCookie(url);
}, 180_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await store?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const RUN = JSON.stringify({ format: 'lock-lab-run', version: 1, lesson: 'naive-lock', history: [{ seq: 1, t: 10, type: 'client', client: 1 }] });

interface Answer {
  status: number;
  body: { ok: true; value: Record<string, unknown> } | { ok: false; error: LabError };
}

async function call(method: string, where: string, options: { cookie?: string; origin?: string | null; body?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin !== null) headers.origin = options.origin ?? url;
  const response = await fetch(`${url}${where}`, { method, headers, ...(options.body !== undefined ? { body: options.body } : {}) });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

function refused(answer: Answer, status: number, key: string): void {
  expect(answer.status).toBe(status);
  if (answer.body.ok) throw new Error(`not refused: ${JSON.stringify(answer.body)}`);
  expect(answer.body.error.words?.key).toBe(`refusals.${key}`);
}

const aliceUsage = async () => store.sharedRuns.usage((await whoIs(alice)) ?? '');
async function whoIs(cookie: string): Promise<string | null> {
  return new BrowserIdentities({ secret: 'test-secret', workBits: 0 }).fromCookieHeader(cookie);
}

it('shares a run for the browser that sent it, which alone reads it as its own and may delete it', async () => {
  const shared = await call('POST', '/api/runs', { cookie: alice, body: RUN });
  expect(shared.status).toBe(201);
  if (!shared.body.ok) throw new Error(shared.body.error.message);
  const id = String(shared.body.value.id);
  expect(shared.body.value.path).toBe(`/runs/${id}`);

  const byOwner = await call('GET', `/api/runs/${id}`, { cookie: alice, origin: null });
  expect(byOwner.body).toEqual({ ok: true, value: { yours: true, run: JSON.parse(RUN) } });
  // A fresh browser with no identity reads it too; it is not its own.
  const byStranger = await call('GET', `/api/runs/${id}`, { origin: null });
  expect(byStranger.body).toEqual({ ok: true, value: { yours: false, run: JSON.parse(RUN) } });

  refused(await call('DELETE', `/api/runs/${id}`, { cookie: bob }), 403, 'sharedRuns.notYours');
  refused(await call('DELETE', `/api/runs/${id}`, {}), 403, 'identity.required');
  expect((await call('GET', `/api/runs/${id}`, { origin: null })).status).toBe(200);

  expect((await call('DELETE', `/api/runs/${id}`, { cookie: alice })).body).toEqual({ ok: true, value: { deleted: true } });
  refused(await call('GET', `/api/runs/${id}`, { origin: null }), 404, 'sharedRuns.gone');
  refused(await call('DELETE', `/api/runs/${id}`, { cookie: alice }), 404, 'sharedRuns.gone');
});

it('refuses bad input in words and keeps nothing: no origin, a foreign origin, no identity, not JSON, not a run, too big', async () => {
  const before = await aliceUsage();
  refused(await call('POST', '/api/runs', { cookie: alice, body: RUN, origin: null }), 403, 'sharedRuns.origin');
  refused(await call('POST', '/api/runs', { cookie: alice, body: RUN, origin: 'https://evil.example' }), 403, 'sharedRuns.origin');
  refused(await call('POST', '/api/runs', { body: RUN }), 403, 'identity.required');
  refused(await call('POST', '/api/runs', { cookie: `${alice.slice(0, -2)}xx`, body: RUN }), 403, 'identity.required');
  refused(await call('POST', '/api/runs', { cookie: alice, body: '{"format":"lock-lab-run",' }), 400, 'sharedRuns.notARun');
  refused(await call('POST', '/api/runs', { cookie: alice, body: JSON.stringify({ format: 'lock-lab-run', version: 2, history: [] }) }), 400, 'sharedRuns.notARun');
  const tampered = RUN.replace('"type":"client"', '"type":"rm -rf"');
  refused(await call('POST', '/api/runs', { cookie: alice, body: tampered }), 400, 'sharedRuns.notARun');
  const big = JSON.stringify({ ...JSON.parse(RUN), code: 'x'.repeat(5_000) });
  const tooBig = await call('POST', '/api/runs', { cookie: alice, body: big });
  refused(tooBig, 413, 'sharedRuns.tooBig');
  expect(tooBig.body.ok === false && tooBig.body.error.message).toBe('This run is 1 MB; a shared run may be at most 1 MB. Share a shorter run, or export it as a file.');
  expect(await aliceUsage()).toEqual(before);
});

it("refuses a browser's share past its bound, and another browser still shares", async () => {
  for (let i = 0; i < 2; i++) expect((await call('POST', '/api/runs', { cookie: bob, body: RUN })).status).toBe(201);
  refused(await call('POST', '/api/runs', { cookie: bob, body: RUN }), 413, 'sharedRuns.perBrowserRuns');
  expect((await call('POST', '/api/runs', { cookie: alice, body: RUN })).status).toBe(201);
});

it('refuses a malformed id without asking the store, and answers an unknown one as gone', async () => {
  for (const bad of ['short', 'A'.repeat(23), 'AAAAAAAAAAAAAAAAAAAA%2F', "AAAAAAAAAAAAAAAAAAA';--"]) refused(await call('GET', `/api/runs/${bad}`, { origin: null }), 400, 'sharedRuns.badId');
  refused(await call('GET', `/api/runs/${'A'.repeat(22)}`, { origin: null }), 404, 'sharedRuns.gone');
  expect((await call('PUT', '/api/runs', { cookie: alice })).status).toBe(400);
});

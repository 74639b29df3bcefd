/**
 * /metrics is an operator's view (labs, runs, how near each limit the server
 * is): served to a request made on the machine straight to the server, and to
 * anyone else only with LOCKLAB_METRICS_TOKEN. Asked over real HTTP of a real
 * server: through a proxy (forwarding headers), from another site's page (a
 * foreign Origin), with a wrong token and with the right one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabServer, type RunningLabServer } from '@/server/app-server';
import { configFromEnv } from '@/server/config';

const TOKEN = 'metrics-token-for-the-test';
let server: RunningLabServer;
const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-metrics-'));

beforeAll(async () => {
  server = await createLabServer(configFromEnv({ port: 0, web: false, maxLabs: 2, warmLabs: 0, runRoot, metricsToken: TOKEN }));
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(runRoot, { recursive: true, force: true });
});

async function metrics(headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}/metrics`, { headers });
  return { status: res.status, text: await res.text() };
}

describe('/metrics', () => {
  it('answers a request made on this machine straight to the server', async () => {
    const { status, text } = await metrics();
    expect(status).toBe(200);
    expect(text).toMatch(/^# HELP locklab_/m);
  });

  it('refuses one forwarded by a proxy, or from another site’s page, without the token; the token opens it', async () => {
    const asked: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.7' }, { forwarded: 'for=203.0.113.7' }, { 'x-real-ip': '203.0.113.7' }, { origin: 'http://attacker.example' }];
    for (const headers of asked) {
      const refused = await metrics(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.text).not.toMatch(/locklab_/);
      expect((await metrics({ ...headers, authorization: 'Bearer not-the-token' })).status).toBe(403);
      const opened = await metrics({ ...headers, authorization: `Bearer ${TOKEN}` });
      expect(opened.status, JSON.stringify(headers)).toBe(200);
      expect(opened.text).toMatch(/^# HELP locklab_/m);
    }
  });
});

/**
 * `npm run bench -- shares`: the tester's figures for identities and shares, on
 * the server's defaults (this machine's lab cap, idle and wait times):
 *
 * 1. right after 40 tabs close, 60 new learners all get a lab;
 * 2. with a stranger holding every lab it can (paid identities, tabs attached,
 *    doing nothing), a newcomer gets a lab, and how long it waited;
 * 3. what an identity costs: the proof of work, as a page and a script pay it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { createLabServer } from '@/server/app-server';
import { configFromEnv } from '@/server/config';
import { browserCookie, openTab } from '@/tests/helpers/browser-identity';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-bench-shares-'));
const config = configFromEnv({ port: 0, web: false, warmLabs: 0, runRoot: root });
const server = await createLabServer(config);
const opened: Tab[] = [];
const tab = async (cookie?: string) => {
  const t = await openTab(server.url, cookie ? { cookie } : {});
  opened.push(t);
  return t;
};
const seconds = (ms: number) => (ms / 1000).toFixed(1);

try {
  console.log(`shares: lab cap ${config.maxLabs}, ${config.labsPerBrowser} labs per browser, wait ${seconds(config.labWaitMs)} s, idle ${seconds(config.labYieldIdleMs)} s, identity ${config.identityWorkBits} bits`);

  // 3. The identity's cost, as a script pays it (a page's JavaScript runs the same loop).
  const costs: number[] = [];
  for (let i = 0; i < 20; i++) {
    const began = performance.now();
    await browserCookie(server.url);
    costs.push(performance.now() - began);
  }
  costs.sort((a, b) => a - b);
  console.log(`identity: 20 bought, median ${Math.round(costs[10]!)} ms, worst ${Math.round(costs[19]!)} ms (GET challenge, 2^${config.identityWorkBits} hashes on average, POST)`);

  // 1. Forty tabs close, sixty learners arrive.
  const leaving = await Promise.all(Array.from({ length: 40 }, () => tab()));
  for (const t of leaving) {
    const r = await t.timeout(120_000).emitWithAck('lab:join', {});
    if (!r.ok) throw new Error(r.error.message);
  }
  for (const t of leaving) t.close();
  while (server.labs.all().some((l) => server.labs.viewerCount(l.id) > 0)) await new Promise((r) => setTimeout(r, 20));
  const began = performance.now();
  const newcomers = await Promise.all(Array.from({ length: 60 }, () => tab()));
  const joined = await Promise.all(newcomers.map((t) => t.timeout(120_000).emitWithAck('lab:join', {})));
  const served = joined.filter((r) => r.ok).length;
  console.log(`after 40 tabs closed: ${served} of 60 new learners got a lab, the last after ${seconds(performance.now() - began)} s; labs now ${server.labs.size}`);
  for (const t of newcomers) t.close();
  for (const lab of server.labs.all()) await server.labs.destroy(lab.id, 'bench');

  // 2. A stranger holds every lab it can: identities of two labs each, tabs attached, idle.
  const attackBegan = performance.now();
  for (let held = 0; held < config.maxLabs; ) {
    const cookie = await browserCookie(server.url);
    for (let j = 0; j < config.labsPerBrowser && held < config.maxLabs; j++, held++) {
      const r = await (await tab(cookie)).timeout(120_000).emitWithAck('lab:join', {});
      if (!r.ok) throw new Error(r.error.message);
    }
  }
  console.log(`stranger: ${server.labs.size} labs held by ${Math.ceil(config.maxLabs / config.labsPerBrowser)} identities in ${seconds(performance.now() - attackBegan)} s`);
  const newcomer = await tab();
  const waitBegan = performance.now();
  const lab = await newcomer.timeout(120_000).emitWithAck('lab:join', {});
  console.log(`newcomer at the full server: ${lab.ok ? 'got a lab' : `refused: ${lab.error.message}`} after ${seconds(performance.now() - waitBegan)} s`);
} finally {
  for (const t of opened) t.close();
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
}

/**
 * Lab engine benchmarks (issue 2): lab ready time, fault → socket event
 * latency, and memory per idle lab. Real redis-server processes, a real
 * server on a random port, real socket.io clients.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { tabSoon } from '@/tests/helpers/browser-identity';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { DEFAULT_TOPOLOGY } from '@/lib/cluster';
import { createLabServer } from '@/server/app-server';
import { configFromEnv } from '@/server/config';
import { Lab } from '@/server/lab/lab';
import { faultLatencies } from './fault-latency';
import { ms, percentile, printTable, type Row } from './stats';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-bench-'));

async function labReady(samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const lab = new Lab({ topology: DEFAULT_TOPOLOGY, clients: 3, dir: path.join(root, `ready-${i}`) });
    const started = performance.now();
    await lab.start();
    times.push(performance.now() - started);
    await lab.destroy();
  }
  return times;
}

function rssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** A tab's join served from the warm reserve: ack received with five live nodes. */
async function warmJoin(samples: number): Promise<number[]> {
  const server = await createLabServer(configFromEnv({ port: 0, web: false, maxLabs: 40, warmLabs: 1, runRoot: path.join(root, 'warm') }));
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      while (server.labs.reserve < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      const socket: Socket<ServerToClientEvents, ClientToServerEvents> = tabSoon(server.url);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const started = performance.now();
      const joined = await socket.emitWithAck('lab:join', {});
      times.push(performance.now() - started);
      if (!joined.ok) throw new Error(joined.error.message);
      socket.close();
      await server.labs.destroy(joined.value.labId, 'bench');
    }
  } finally {
    await server.close();
  }
  return times;
}

async function faultToEvent(samples: number): Promise<{ latencies: number[]; rssPerLabMb: number }> {
  // A measuring loop sends kill + restart back to back, faster than the per-tab limit a person never reaches.
  const limits = { labActionBurst: 10_000, labActionRatePerSecond: 10_000, perLabBurst: 10_000, perLabRatePerSecond: 10_000 };
  const server = await createLabServer(configFromEnv({ port: 0, web: false, maxLabs: 40, warmLabs: 0, runRoot: path.join(root, 'server'), ...limits }));
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = tabSoon(server.url);
  const joined = await socket.emitWithAck('lab:join', {});
  if (!joined.ok) throw new Error(joined.error.message);
  const latencies = await faultLatencies(socket, samples);

  // Memory: 10 idle labs, their redis-servers' RSS plus what the server process grew by.
  const idleLabs = 10;
  const baseServer = process.memoryUsage().rss / 1024;
  const extra: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];
  for (let i = 0; i < idleLabs; i++) {
    const s: Socket<ServerToClientEvents, ClientToServerEvents> = tabSoon(server.url);
    extra.push(s);
    const r = await s.emitWithAck('lab:join', {});
    if (!r.ok) throw new Error(r.error.message);
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // let monitors settle into their idle rhythm
  const labs = server.labs.all().slice(1);
  const redisKb = labs.flatMap((lab) => lab.nodes.map((n) => (n.pid ? rssKb(n.pid) : 0))).reduce((a, b) => a + b, 0);
  const serverKb = Math.max(0, process.memoryUsage().rss / 1024 - baseServer);
  for (const s of [socket, ...extra]) s.close();
  await server.close();
  return { latencies, rssPerLabMb: (redisKb + serverKb) / idleLabs / 1024 };
}

export async function runEngineBench(): Promise<Row[]> {
  const ready = await labReady(20);
  const warm = await warmJoin(20);
  const { latencies, rssPerLabMb } = await faultToEvent(40);
  fs.rmSync(root, { recursive: true, force: true });
  return [
    { measure: 'lab ready, cold (spawn → 5 nodes answer PING), p50', value: ms(percentile(ready, 50)), goal: '≤ 150 ms', met: percentile(ready, 50) <= 150 },
    { measure: 'lab ready, cold, p95', value: ms(percentile(ready, 95)), goal: '–', met: null },
    { measure: 'lab ready from the warm reserve (join sent → snapshot ack), p50', value: ms(percentile(warm, 50)), goal: '≤ 20 ms', met: percentile(warm, 50) <= 20 },
    { measure: 'lab ready from the warm reserve, p95', value: ms(percentile(warm, 95)), goal: '–', met: null },
    { measure: 'fault → event (kill sent → nodes:update received), p50', value: ms(percentile(latencies, 50)), goal: '–', met: null },
    { measure: 'fault → event, p95', value: ms(percentile(latencies, 95)), goal: '≤ 50 ms', met: percentile(latencies, 95) <= 50 },
    { measure: 'RSS per idle lab (5 redis-servers + server growth)', value: `${rssPerLabMb.toFixed(1)} MB`, goal: '≤ 80 MB', met: rssPerLabMb <= 80 },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('Lab engine (issue 2)', await runEngineBench());
}

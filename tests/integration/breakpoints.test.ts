/**
 * Breakpoints on the run's own events (issue 30, item 2): "pause the run when a client's SET is answered OK"
 * stops every client at that moment, in the worker, its clock with it, while Redis goes on (the lock's TTL keeps running out);
 * the run's wall clock stands still meanwhile; Continue lets the clients go and the run ends by itself; Step
 * stops again at the next answered command; a run left at a breakpoint past the lab's limit is stopped in words.
 */
import IORedis from 'ioredis';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@/lib/history';
import type { Trigger } from '@/lib/scenario';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { LabOperationError } from '@/lib/result';

const HOLD_MS = 4_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-breakpoints-'));
let pool: SandboxPool;
let lab: Lab;
let runs: LabRuns;
let admin: IORedis;
beforeAll(async () => {
  pool = createSandboxPool({ warmWorkers: 1, breakpointHoldMs: HOLD_MS });
  lab = new Lab({ topology: { kind: 'masters', nodes: 1, persistence: 'none' }, clients: 2, dir });
  await lab.start();
  runs = new LabRuns(lab, pool);
  admin = new IORedis({ port: lab.nodes[0]!.port, ...lab.credentials.control });
  await pool.whenWarm();
});
afterAll(async () => {
  admin?.disconnect();
  await lab?.destroy();
  await pool?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Each client takes the lock (a 3 s TTL), says so, works a moment and leaves it to expire.
const PROGRAM = `import Redis from 'ioredis';
import lab from 'lab';
const r = new Redis({ host: 'redis-1.internal', port: 6379 });
const token = 'client-' + lab.client;
let asked = Date.now();
while ((await r.set('bp:lock', token, 'PX', 3000, 'NX')) !== 'OK') { await lab.sleep(20); asked = Date.now(); }
console.log('holding');
console.log('the SET took ' + (Date.now() - asked) + ' ms by my clock');
await lab.sleep(50);
console.log('done');
r.disconnect();`;

const SET_OK: Trigger = { on: 'command-answered', command: 'SET', reply: 'OK', nth: 1 };

const events = (runId: string): HistoryEvent[] => runs.historyOf(runId);
const notes = (runId: string, key: string) => events(runId).filter((e) => e.type === 'console' && e.client === 0 && e.words?.key === key);
const logged = (runId: string, text: string) => events(runId).filter((e) => e.type === 'console' && e.client !== 0 && e.text === text);

describe('breakpoints', () => {
  it('freezes every client when a SET is answered OK, while the lock’s TTL runs on; Continue lets them finish', { timeout: 60_000 }, async () => {
    await admin.del('bp:lock');
    const info = await runs.start({ code: PROGRAM, clients: 2, breakpoint: SET_OK, limits: { wallClockMs: 3_000 } });
    await expect.poll(() => notes(info.runId, 'runNotes.breakpointHit').length, { timeout: 20_000 }).toBe(1);
    const hit = notes(info.runId, 'runNotes.breakpointHit')[0]!;
    expect(hit.type === 'console' && hit.text).toMatch(/^Stopped at your breakpoint: a client's SET is answered OK\. Every client is frozen/);
    // Both clients were stopped at that moment, and the one granted the lock never read its reply.
    const paused = events(info.runId).filter((e) => e.type === 'client' && e.event === 'pause' && e.seq > hit.seq);
    expect(paused.map((e) => (e.type === 'client' ? e.client : 0)).sort()).toEqual([1, 2]);
    expect(logged(info.runId, 'holding')).toHaveLength(0);
    // The timeline marks it.
    expect(events(info.runId).some((e) => e.type === 'scenario' && e.step === 'breakpoint')).toBe(true);
    // Redis keeps its own time: the lock's TTL goes down while the clients stand still.
    const first = await admin.pttl('bp:lock');
    expect(first).toBeGreaterThan(0);
    await expect.poll(() => admin.pttl('bp:lock'), { timeout: 5_000 }).toBeLessThan(first - 300);
    // Longer at the breakpoint than the run's 3 s wall clock (and the lock's TTL): it stood still, so the run is not out of time.
    await expect.poll(() => lab.now() - hit.t, { timeout: 8_000, interval: 100 }).toBeGreaterThan(3_500);
    expect(runs.current).not.toBeNull();
    // Cleared first: Continue would arm it again, and the other client's SET would stop the run once more.
    expect(runs.setBreakpoint(null)).toBe(true);
    runs.continueFromBreakpoint(false);
    const ended = await runs.whenEnded(info.runId);
    expect(ended.outcome.status, ended.outcome.error).toBe('completed');
    expect(logged(info.runId, 'done')).toHaveLength(2);
    expect(notes(info.runId, 'runNotes.breakpointContinue')).toHaveLength(1);
    // The frozen clients' clocks stood still with them: the holder saw its SET answered at once, though it
    // stood more than 3.5 s at the breakpoint.
    const took = events(info.runId).flatMap((e) => (e.type === 'console' && e.client !== 0 ? [/^the SET took (\d+) ms/.exec(e.text)] : [])).filter((m) => m !== null);
    expect(took, events(info.runId).flatMap((e) => (e.type === 'console' ? [e.client + ': ' + e.text] : [])).join(' / ')).toHaveLength(2);
    expect(Math.min(...took.map((m) => Number(m![1])))).toBeLessThan(1_000);
    expect(notes(info.runId, 'runNotes.breakpointHit')).toHaveLength(1);
    expect(ended.verdict.valid).toBe('held');
  });

  it('Step stops again at the next answered command: the other client’s SET that finds the lock taken', { timeout: 60_000 }, async () => {
    await admin.del('bp:lock');
    const info = await runs.start({ code: PROGRAM, clients: 2, breakpoint: SET_OK });
    await expect.poll(() => notes(info.runId, 'runNotes.breakpointHit').length, { timeout: 20_000 }).toBe(1);
    runs.continueFromBreakpoint(true);
    await expect.poll(() => notes(info.runId, 'runNotes.breakpointHit').length, { timeout: 10_000 }).toBe(2);
    expect(notes(info.runId, 'runNotes.breakpointStep')).toHaveLength(1);
    const second = notes(info.runId, 'runNotes.breakpointHit')[1]!;
    expect(second.type === 'console' && second.text).toMatch(/^Stopped at your breakpoint: a command of a client's is answered\./);
    // The step's stop is one-off: cleared, Continue lets the run end by itself.
    runs.setBreakpoint(null);
    runs.continueFromBreakpoint(false);
    const ended = await runs.whenEnded(info.runId);
    expect(ended.outcome.status, ended.outcome.error).toBe('completed');
    expect(logged(info.runId, 'done')).toHaveLength(2);
  });

  it('keeps a frozen client’s work where it was: a job of 1 s stopped at its start still works 1 s after Resume', { timeout: 60_000 }, async () => {
    const code = `import lab from 'lab';
await lab.job('work').run(1000);
console.log('worked');`;
    const info = await runs.start({ code, clients: 1, breakpoint: { on: 'job-enter', client: 1, nth: 1 } });
    await expect.poll(() => notes(info.runId, 'runNotes.breakpointHit').length, { timeout: 20_000 }).toBe(1);
    const hit = notes(info.runId, 'runNotes.breakpointHit')[0]!;
    // Longer than the job at the breakpoint: its timer went off meanwhile, on the worker's clock, not the client's.
    await expect.poll(() => lab.now() - hit.t, { timeout: 5_000, interval: 100 }).toBeGreaterThan(1_500);
    runs.continueFromBreakpoint(false);
    const ended = await runs.whenEnded(info.runId);
    expect(ended.outcome.status, ended.outcome.error).toBe('completed');
    const resumed = notes(info.runId, 'runNotes.breakpointContinue')[0]!;
    const exit = events(info.runId).find((e) => e.type === 'job' && e.phase === 'exit')!;
    expect(exit.t - resumed.t).toBeGreaterThan(800);
  });

  it('freezes a client in a timed pause with the rest: its pause stops counting, and what was left of it goes on after Continue', { timeout: 60_000 }, async () => {
    const PAUSE_MS = 1_500;
    const code = `import lab from 'lab';
if (lab.client === 1) {
  for (let i = 0; i < 40; i++) await lab.sleep(25);
  console.log('one done');
} else {
  await lab.sleep(500);
  await lab.job('work').run(100);
  console.log('two done');
}`;
    const info = await runs.start({ code, clients: 2, breakpoint: { on: 'job-enter', client: 2, nth: 1 } });
    runs.current!.pause(1, PAUSE_MS);
    await expect.poll(() => notes(info.runId, 'runNotes.breakpointHit').length, { timeout: 20_000 }).toBe(1);
    const hit = notes(info.runId, 'runNotes.breakpointHit')[0]!;
    const ofOne = (after: number) => events(info.runId).filter((e) => e.type === 'client' && e.client === 1 && e.seq > after);
    const paused = events(info.runId).find((e) => e.type === 'client' && e.client === 1 && e.event === 'pause' && e.durationMs === PAUSE_MS)!;
    expect(paused, 'client 1 was paused by the fault before the breakpoint').toBeDefined();
    // Frozen too, though paused: the stop names both clients.
    expect(ofOne(hit.seq).filter((e) => e.type === 'client' && e.event === 'pause' && e.breakpoint)).toHaveLength(1);
    // Standing at the breakpoint longer than the whole pause: client 1 does not go on alone.
    await expect.poll(() => lab.now() - hit.t, { timeout: 8_000, interval: 100 }).toBeGreaterThan(PAUSE_MS + 500);
    expect(ofOne(hit.seq).filter((e) => e.type === 'client' && e.event === 'resume')).toEqual([]);
    expect(logged(info.runId, 'one done')).toHaveLength(0);
    runs.setBreakpoint(null);
    runs.continueFromBreakpoint(false);
    const ended = await runs.whenEnded(info.runId);
    expect(ended.outcome.status, ended.outcome.error).toBe('completed');
    const continued = notes(info.runId, 'runNotes.breakpointContinue')[0]!;
    // After the thaw, the rest of the pause: what was left when the run stopped (the pause began before it).
    const after = ofOne(continued.seq - 1).filter((e) => e.type === 'client' && (e.event === 'pause' || e.event === 'resume'));
    const rest = after.find((e) => e.type === 'client' && e.event === 'pause');
    if (rest?.type !== 'client' || rest.durationMs === undefined) throw new Error(`no rest of the pause after Continue: ${JSON.stringify(after)}`);
    const left = PAUSE_MS - (hit.t - paused.t);
    expect(rest.durationMs).toBeGreaterThan(0);
    expect(rest.durationMs).toBeLessThanOrEqual(PAUSE_MS);
    expect(Math.abs(rest.durationMs - left)).toBeLessThan(400); // both stamps cross the same port: close, not equal
    const resumed = after.filter((e) => e.type === 'client' && e.event === 'resume' && !e.breakpoint).at(-1)!;
    expect(resumed.t - rest.t).toBeGreaterThanOrEqual(rest.durationMs - 5);
    expect(logged(info.runId, 'one done')).toHaveLength(1);
  });

  it('stops a run left at a breakpoint past the lab’s limit, and says so', { timeout: 60_000 }, async () => {
    await admin.del('bp:lock');
    const info = await runs.start({ code: PROGRAM, clients: 1, breakpoint: SET_OK });
    const ended = await runs.whenEnded(info.runId);
    expect(ended.outcome.status).toBe('killed');
    expect(ended.outcome.error).toBe(`The run stood at a breakpoint for more than ${HOLD_MS / 1000} s, the lab's limit, so it was stopped.`);
    expect(logged(info.runId, 'holding')).toHaveLength(0);
  });

  it('sets a breakpoint on the run going on, and refuses Continue when nothing runs', { timeout: 60_000 }, async () => {
    await admin.del('bp:lock');
    expect(() => runs.continueFromBreakpoint(false)).toThrow(LabOperationError);
    expect(runs.setBreakpoint(SET_OK)).toBe(false);
    const slow = PROGRAM.replace("while (", "await lab.sleep(300);\nwhile (");
    const info = await runs.start({ code: slow, clients: 1 });
    expect(runs.setBreakpoint(SET_OK)).toBe(true);
    await expect.poll(() => notes(info.runId, 'runNotes.breakpointHit').length, { timeout: 20_000 }).toBe(1);
    runs.setBreakpoint(null);
    runs.continueFromBreakpoint(false);
    const ended = await runs.whenEnded(info.runId);
    expect(ended.outcome.status, ended.outcome.error).toBe('completed');
  });
});

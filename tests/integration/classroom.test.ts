/**
 * Classrooms on one server: a real server on a random port, real labs, and
 * typed socket.io clients playing an instructor and two learners.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeJoinCode, type ClassroomDemoStarted, type ClassroomJoined, type RosterEntry } from '@/lib/classroom';
import type { RunEnded } from '@/lib/run';
import { createLabServer, type RunningLabServer } from '@/server/app-server';
import { configFromEnv } from '@/server/config';
import { alive, waitFor } from './lab-fixture';
import { connectTo, emitRaw, LabWatcher, value, type Client } from './classroom-fixture';
import { browserCookie } from '../helpers/browser-identity';

const TOKEN = 'teach-the-room';
let server: RunningLabServer;
const sockets: Client[] = [];
const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-class-'));
const connect = (cookie?: string) => connectTo(server.url, sockets, cookie ? { cookie } : undefined);

/** A browser: the identity cookie a page hands out, as a Cookie header value (its tabs share a seat in a class). */
async function newBrowser(): Promise<string> {
  return browserCookie(server.url);
}

beforeAll(async () => {
  server = await createLabServer(
    configFromEnv({ port: 0, web: false, maxLabs: 4, warmLabs: 0, runRoot, coordinationUrl: null, instructorToken: TOKEN, classroomMaxLearners: 2 }),
  );
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.close();
  fs.rmSync(runRoot, { recursive: true, force: true });
});

interface Member {
  socket: Client;
  joined: ClassroomJoined;
  lab: LabWatcher;
}

/** A socket that joins a classroom and watches its lab (the snapshot from the ack, then every pushed change and history batch). */
async function member(join: (socket: Client) => Promise<ClassroomJoined>, cookie?: string): Promise<Member> {
  const socket = connect(cookie);
  let labId: string | null = null;
  const lab = new LabWatcher(socket, () => labId);
  const joined = await join(socket);
  labId = joined.labId;
  for (const n of joined.lab.nodes) lab.nodes.set(n.id, n);
  return { socket, joined, lab };
}

describe('a classroom on one server', () => {
  let instructor: Member;
  let ada: Member;
  let grace: Member;
  let graceBrowser: string;
  const roster = new Map<string, RosterEntry>();

  it('lets the instructor create a classroom with an unguessable code, and two learners join by name', async () => {
    instructor = await member(async (s) => value(await s.emitWithAck('classroom:create', { token: TOKEN, name: 'Distributed locks 101' })));
    instructor.socket.on('classroom:roster', (u) => roster.set(u.learner.learnerId, u.learner));
    const { code, link, role, lab } = instructor.joined;
    expect(role).toBe('instructor');
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(link).toBe(`/classroom/${code}`);
    expect(lab.nodes.map((n) => n.state)).toEqual(['up', 'up', 'up', 'up', 'up']);
    expect(instructor.joined.roster).toEqual([]);

    // Typed the way people type: lower case, O for 0, spaces for dashes.
    const typed = code.toLowerCase().replace(/0/g, 'o').replace(/-/g, ' ');
    expect(normalizeJoinCode(typed)).toBe(code);
    ada = await member(async (s) => value(await s.emitWithAck('classroom:join', { code: typed, name: '  Ada   Lovelace ' })));
    graceBrowser = await newBrowser();
    grace = await member(async (s) => value(await s.emitWithAck('classroom:join', { code, name: 'Grace' })), graceBrowser);
    expect(ada.joined).toMatchObject({ role: 'learner', labId: instructor.joined.labId, roster: null });
    expect(ada.joined.lab.nodes.map((n) => n.port)).toEqual(lab.nodes.map((n) => n.port));
    await waitFor(() => roster.size === 2, 'the instructor to see both learners');
    expect([...roster.values()].map((e) => e.name).sort()).toEqual(['Ada Lovelace', 'Grace']);

    // A learner's progress report reaches the instructor's roster, validated.
    value(await ada.socket.emitWithAck('classroom:progress', { lessonsRead: ['naive-lock'], quizScores: { 'naive-lock': { correct: 3, total: 4 } }, exercisesPassed: [] }));
    await waitFor(() => roster.get(ada.joined.learnerId!)?.progress.lessonsRead.length === 1, 'the progress in the roster');
    expect(roster.get(ada.joined.learnerId!)?.progress.quizScores['naive-lock']).toEqual({ correct: 3, total: 4 });
    const bad = await emitRaw(ada.socket, 'classroom:progress', { lessonsRead: ['x'], quizScores: { x: { correct: 5, total: 4 } }, exercisesPassed: [] });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('refuses bad joins with a reason: a full room, a wrong code, a bad name, a wrong token', async () => {
    const { code } = instructor.joined;
    expect(await connect().emitWithAck('classroom:join', { code, name: 'Third' })).toMatchObject({ ok: false, error: { code: 'classroom-full' } });
    expect(await connect().emitWithAck('classroom:join', { code: 'ZZZZZ-ZZZZZ-ZZZZZ', name: 'Lost' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await connect().emitWithAck('classroom:join', { code: 'abc', name: 'Short' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    for (const name of ['', 'x'.repeat(41), 'evil\u202eeman'])
      expect(await connect().emitWithAck('classroom:join', { code, name }), JSON.stringify(name)).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await connect().emitWithAck('classroom:join', { code, instructorToken: 'guess' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await connect().emitWithAck('classroom:create', { token: 'guess' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // A learner who reloads (a new socket of the same browser) rejoins as the same roster entry, and does not take a new seat.
    const again = value(await connect(graceBrowser).emitWithAck('classroom:join', { code, name: 'Grace' }));
    expect(again.learnerId).toBe(grace.joined.learnerId);
    // A learner id is no key to a seat: another browser naming Grace's id is a new learner (and the class is full).
    expect(await connect().emitWithAck('classroom:join', { code, name: 'Mallory', learnerId: grace.joined.learnerId! })).toMatchObject({
      ok: false,
      error: { code: 'classroom-full' },
    });
  });

  it("refuses a learner's instructor actions, and nothing changes", async () => {
    const lab = server.labs.get(instructor.joined.labId)!;
    const historyBefore = lab.history.length;
    const attempts: [string, unknown][] = [
      ['classroom:command', { command: 'node:kill', input: { node: 3 } }],
      ['classroom:command', { command: 'run:start', input: { code: 'const x = 1;' } }],
      ['classroom:demo', { demo: { builtin: 'gc-pause-breaks-redlock' } }],
      ['classroom:follow', { lesson: 'naive-lock' }],
      ['classroom:end', {}],
    ];
    for (const [event, payload] of attempts) {
      const result = await emitRaw(ada.socket, event, payload);
      expect(result, event).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    // Nor can a learner take the lab over as if it were their own.
    expect(await ada.socket.emitWithAck('lab:join', { labId: instructor.joined.labId })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await ada.socket.emitWithAck('node:kill', { node: 3 })).toMatchObject({ ok: false, error: { code: 'no-lab' } });
    expect(lab.nodes.map((n) => n.state)).toEqual(['up', 'up', 'up', 'up', 'up']);
    expect(lab.history.length).toBe(historyBefore);
    expect(server.classrooms.classrooms).toBe(1);
  });

  it("carries the instructor's kill and 'follow me' to every learner", async () => {
    const follows: string[] = [];
    grace.socket.on('classroom:follow', (f) => follows.push(`${f.lesson}/${f.scenario}`));
    const killed = value(await instructor.socket.emitWithAck('classroom:command', { command: 'node:kill', input: { node: 3 } }));
    expect(killed).toMatchObject({ id: 3, state: 'down' });
    for (const who of [ada, grace]) await waitFor(() => who.lab.state(3) === 'down', 'a learner to see Node 3 down');
    value(await instructor.socket.emitWithAck('classroom:command', { command: 'node:restart', input: { node: 3 } }));
    for (const who of [ada, grace]) await waitFor(() => who.lab.state(3) === 'up', 'a learner to see Node 3 up again');
    // A bad command payload is refused by the command's own validation.
    expect(await instructor.socket.emitWithAck('classroom:command', { command: 'node:kill', input: { node: 99 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });

    value(await instructor.socket.emitWithAck('classroom:follow', { lesson: 'naive-lock', scenario: null }));
    await waitFor(() => follows.includes('naive-lock/null'), 'the learner to follow');
    expect(await instructor.socket.emitWithAck('classroom:follow', { lesson: 'no-such-lesson' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('runs a demo that reaches every learner with the same history', async () => {
    const demos = value(await ada.socket.emitWithAck('classroom:demos', {}));
    expect(demos.slice(0, 3).map((d) => d.title)).toEqual(['GC pause breaks Redlock', 'Failover loses the lock', 'Fencing saves the day']);
    expect(demos.some((d) => d.lesson !== null && d.role === 'break')).toBe(true);

    const announced: ClassroomDemoStarted[] = [];
    const ended = (m: Member) => new Promise<RunEnded>((resolve) => m.socket.on('run:ended', (e) => e.labId === m.joined.labId && resolve(e)));
    const endings = [ended(ada), ended(grace)];
    ada.socket.on('classroom:demo', (d) => announced.push(d));
    grace.socket.on('classroom:demo', (d) => announced.push(d));
    const started = value(await instructor.socket.emitWithAck('classroom:demo', { demo: { builtin: 'gc-pause-breaks-redlock' }, seed: 7 }));
    expect(started).toMatchObject({ title: 'GC pause breaks Redlock', seed: 7, run: { scenario: { id: 'gc-pause-breaks-redlock', seed: 7 } } });
    const [adaEnd, graceEnd] = await Promise.all(endings);
    expect(adaEnd!.runId).toBe(started.run.runId);
    const story = () =>
      [...ada.lab.history.values()]
        .filter((e) => e.type === 'lock' || e.type === 'job' || e.type === 'client')
        .map((e) => `${Math.round(e.t)} ${JSON.stringify(e).slice(0, 120)}`)
        .join('\n');
    expect(adaEnd!.verdict.valid, story()).toBe('violated');
    expect(adaEnd!.verdict.diagnoses.map((d) => d.kind)).toContain('pause-beyond-validity');
    expect(graceEnd!.verdict).toEqual(adaEnd!.verdict);
    await waitFor(() => announced.length === 2, 'both learners to hear of the demo');

    // Same history, event for event, for both learners (and as long as the lab's own).
    const lab = server.labs.get(instructor.joined.labId)!;
    await waitFor(() => ada.lab.history.size === lab.history.length && grace.lab.history.size === lab.history.length, 'every event to arrive');
    expect(grace.lab.lines()).toEqual(ada.lab.lines());
    expect(ada.lab.lines().some((l) => l.includes('"event":"pause"'))).toBe(true);

    // A late joiner gets the demo in the ack and the whole history.
    const late = value(await connect().emitWithAck('classroom:join', { code: instructor.joined.code, instructorToken: TOKEN }));
    expect(late.demo?.run.runId).toBe(started.run.runId);
    expect(late.roster?.map((r) => r.name).sort()).toEqual(['Ada Lovelace', 'Grace']);
  });

  it('lets a learner run a lab of their own beside the classroom lab', async () => {
    const own = value(await grace.socket.emitWithAck('lab:join', {}));
    expect(own.labId).not.toBe(grace.joined.labId);
    value(await grace.socket.emitWithAck('node:kill', { node: 2 }));
    expect(server.labs.get(own.labId)!.node(2).state).toBe('down');
    expect(server.labs.get(grace.joined.labId)!.node(2).state).toBe('up');
    // The classroom lab's events still reach the learner, tagged with its labId.
    value(await instructor.socket.emitWithAck('classroom:command', { command: 'node:pause', input: { node: 5 } }));
    await waitFor(() => grace.lab.state(5) === 'paused', 'the classroom lab event beside the own lab');
    value(await instructor.socket.emitWithAck('classroom:command', { command: 'node:resume', input: { node: 5 } }));
  });

  it('ends the class on the instructor’s word: every member hears it and the lab goes', async () => {
    const lab = server.labs.get(instructor.joined.labId)!;
    const pids = lab.nodes.map((n) => n.pid!);
    const endedFor = new Promise<string>((resolve) => ada.socket.once('classroom:ended', (e) => resolve(e.reason)));
    value(await instructor.socket.emitWithAck('classroom:end', {}));
    expect(await endedFor).toMatch(/instructor ended/);
    await waitFor(() => pids.every((pid) => !alive(pid)), "the classroom lab's redis-servers to stop");
    expect(await connect().emitWithAck('classroom:join', { code: instructor.joined.code, name: 'Late' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await emitRaw(ada.socket, 'classroom:progress', { lessonsRead: [], quizScores: {}, exercisesPassed: [] })).toMatchObject({ ok: false });
  });
});

describe('classroom limits', () => {
  it('rate-limits a socket that sends too fast, and ends a classroom left idle', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-class2-'));
    const small = await createLabServer(
      configFromEnv({
        port: 0,
        web: false,
        sandbox: false,
        maxLabs: 2,
        warmLabs: 0,
        runRoot: root,
        coordinationUrl: null,
        instructorToken: TOKEN,
        classroomIdleMs: 400,
        actionBurst: 3,
        actionRatePerSecond: 1,
      }),
    );
    try {
      const teacher = connectTo(small.url, sockets);
      const joined = value(await teacher.emitWithAck('classroom:create', { token: TOKEN }));
      // A burst of 3, refilled at 1 a second: of six quick asks, the first passes and the later ones are refused.
      const results = [];
      for (let i = 0; i < 6; i++) results.push(await teacher.emitWithAck('classroom:demos', {}));
      expect(results[0]!.ok).toBe(true);
      const limited = results.at(-1)!;
      expect(limited).toMatchObject({ ok: false, error: { code: 'rate-limited' } });
      if (!limited.ok) expect(limited.error.message).toMatch(/Too many actions.*wait \d+ ms/);

      const pids = small.labs.get(joined.labId)!.nodes.map((n) => n.pid!);
      const ended = await new Promise<string>((resolve) => teacher.once('classroom:ended', (e) => resolve(e.reason)));
      expect(ended).toMatch(/nothing happened/);
      await waitFor(() => small.labs.get(joined.labId) === undefined, 'the idle classroom lab to go');
      await waitFor(() => pids.every((pid) => !alive(pid)), 'its redis-servers to stop');
    } finally {
      await small.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the built-in demos', () => {
  it('show what they promise: the failover loses the lock, and fencing saves the data', async () => {
    const { createSandboxPool } = await import('@/server/sandbox');
    const { LabRuns } = await import('@/server/runs/lab-runs');
    const { resolveDemo } = await import('@/server/classroom/demos');
    const { startLab } = await import('./lab-fixture');
    const pool = createSandboxPool({ warmWorkers: 1 });
    try {
      const lab = await startLab();
      const runs = new LabRuns(lab, pool);
      const play = async (builtin: string) => {
        const info = await runs.start(resolveDemo({ builtin }, undefined).run);
        return runs.whenEnded(info.runId);
      };
      const failover = await play('failover-loses-the-lock');
      expect(lab.topology.kind).toBe('replicated');
      expect(failover.verdict.valid).toBe('violated');
      expect(failover.verdict.checks['mutual-exclusion'].valid).toBe('violated');
      const fencing = await play('fencing-saves-the-day');
      expect(fencing.verdict.checks.fencing.valid).toBe('held');
      expect(fencing.verdict.savedByFencing.count).toBeGreaterThanOrEqual(1);
      expect(fencing.verdict.valid).toBe('held');
    } finally {
      await pool.close();
    }
  });
});

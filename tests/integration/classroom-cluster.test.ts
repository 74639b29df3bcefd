/**
 * One classroom across two lab servers (two processes) that share a
 * coordination redis-server started here: the lab lives on server A, a
 * learner watches from server B, instructor actions from either server reach
 * the lab, and the roster reaches the instructor wherever they are.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RosterEntry } from '@/lib/classroom';
import { connectTo, emitRaw, LabWatcher, value, type Client } from './classroom-fixture';
import { startCoordinationRedis, spawnLabServer, type CoordinationRedis, type SpawnedServer } from './classroom-cluster-fixture';
import { alive, waitFor } from './lab-fixture';
import { tokenFingerprint } from '@/server/classroom/instructor-token';
import { browserCookie } from '../helpers/browser-identity';

let coordination: CoordinationRedis;
let a: SpawnedServer;
let b: SpawnedServer;
const sockets: Client[] = [];

beforeAll(async () => {
  coordination = await startCoordinationRedis();
  // No LOCKLAB_INSTRUCTOR_TOKEN: the first server generates one and the second adopts it through the coordination Redis.
  // One cookie secret, as servers behind one proxy share it: a browser is the same browser on either server.
  const env = { LOCKLAB_COORDINATION_URL: coordination.url, LOCKLAB_SANDBOX: '0', LOCKLAB_INSTRUCTOR_TOKEN: '', LOCKLAB_COOKIE_SECRET: 'cluster-test-cookie-secret' };
  a = await spawnLabServer(env);
  b = await spawnLabServer(env);
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all([a?.stop(), b?.stop()]);
  await coordination?.stop();
  for (const pid of [a?.pid, b?.pid, coordination?.pid]) if (pid) expect(alive(pid)).toBe(false);
}, 60_000);

/** A browser's identity cookie, as a page of `url` hands it out (a Cookie header value). */
async function browserOf(url: string): Promise<string> {
  return browserCookie(url);
}

/** The token a server generated: its log names the file (and a fingerprint), never the token itself. */
function tokenIn(output: string): string | undefined {
  const file = /instructor token: generated, fingerprint (\w+); read it from (\S+)/.exec(output);
  if (!file) return undefined;
  expect((fs.statSync(file[2]!).mode & 0o777).toString(8)).toBe('600');
  const token = fs.readFileSync(file[2]!, 'utf8').trim();
  expect(output).not.toContain(token);
  expect(tokenFingerprint(token)).toBe(file[1]);
  return token;
}

describe('a classroom across two servers', () => {
  it('kills Node 3 from the instructor on A, and the learner on B sees it; actions and roster cross servers both ways', async () => {
    const token = await waitFor(() => tokenIn(a.output()), 'server A to print the instructor token');
    expect(tokenIn(b.output())).toBe(token);

    const instructor = connectTo(a.url, sockets);
    const roster = new Map<string, RosterEntry>();
    instructor.on('classroom:roster', (u) => roster.set(u.learner.learnerId, u.learner));
    const created = value(await instructor.emitWithAck('classroom:create', { token, name: 'Two servers' }));

    // Barbara's browser got its cookie from A; her tabs on B are the same browser (the servers share the secret).
    const barbara = { cookie: await browserOf(a.url) };
    const learner = connectTo(b.url, sockets, barbara);
    let labId: string | null = null;
    const watch = new LabWatcher(learner, () => labId);
    const joined = value(await learner.emitWithAck('classroom:join', { code: created.code, name: 'Barbara' }));
    labId = joined.labId;
    expect(joined.labId).toBe(created.labId);
    expect(joined.lab.nodes.map((n) => n.state)).toEqual(['up', 'up', 'up', 'up', 'up']);
    await waitFor(() => watch.history.size > 0, 'the lab history on B');

    // Kill Node 3 from A; the learner on B receives it.
    value(await instructor.emitWithAck('classroom:command', { command: 'node:kill', input: { node: 3 } }));
    await waitFor(() => watch.state(3) === 'down', 'the learner on B to see Node 3 down');
    await waitFor(() => [...watch.history.values()].some((e) => e.type === 'nemesis' && e.op === 'node-kill' && e.phase === 'ok'), 'the kill in B’s history');

    // The learner's progress, reported on B, reaches the instructor's roster on A.
    await waitFor(() => roster.get(joined.learnerId!)?.connected === true, 'the learner in the roster');
    value(await learner.emitWithAck('classroom:progress', { lessonsRead: ['naive-lock', 'safe-release'], quizScores: {}, exercisesPassed: ['naive-lock'] }));
    await waitFor(() => roster.get(joined.learnerId!)?.progress.exercisesPassed[0] === 'naive-lock', 'the progress on A');

    // The same learner in a second tab, on the other server: closing one tab keeps them in the class;
    // only closing the last one marks them away (exactly one "away" update).
    const updates: RosterEntry[] = [];
    instructor.on('classroom:roster', (u) => {
      if (u.learner.learnerId === joined.learnerId) updates.push(u.learner);
    });
    const firstTab = connectTo(b.url, sockets, barbara);
    expect(value(await firstTab.emitWithAck('classroom:join', { code: created.code, name: 'Barbara' })).learnerId).toBe(joined.learnerId);
    const secondTab = connectTo(a.url, sockets, barbara);
    expect(value(await secondTab.emitWithAck('classroom:join', { code: created.code, name: 'Barbara' })).learnerId).toBe(joined.learnerId);
    firstTab.close();
    value(await secondTab.emitWithAck('classroom:progress', { lessonsRead: ['redlock'], quizScores: {}, exercisesPassed: [] }));
    const fromSecond = await waitFor(() => updates.find((u) => u.progress.lessonsRead.includes('redlock')), 'the second tab’s progress');
    expect(fromSecond.connected).toBe(true);
    secondTab.close();
    value(await learner.emitWithAck('classroom:progress', { lessonsRead: ['redlock', 'failover'], quizScores: {}, exercisesPassed: [] }));
    const fromFirst = await waitFor(() => updates.find((u) => u.progress.lessonsRead.includes('failover')), 'the first tab’s progress');
    expect(fromFirst.connected).toBe(true);
    learner.disconnect();
    await waitFor(() => updates.at(-1)?.connected === false, 'the learner away once every tab is closed');
    expect(updates.filter((u) => !u.connected)).toHaveLength(1);
    learner.connect();
    value(await learner.emitWithAck('classroom:join', { code: created.code, name: 'Barbara' }));
    await waitFor(() => updates.at(-1)?.connected === true, 'the learner back in the class');

    // The learner on B is refused an instructor action, and nothing changes on A.
    expect(await emitRaw(learner, 'classroom:command', { command: 'node:restart', input: { node: 3 } })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });

    // The instructor, now also on B, sends an action that is forwarded to A and answered with A's Result.
    const onB = connectTo(b.url, sockets);
    value(await onB.emitWithAck('classroom:join', { code: created.code, instructorToken: token }));
    const restarted = value(await onB.emitWithAck('classroom:command', { command: 'node:restart', input: { node: 3 } }));
    expect(restarted).toMatchObject({ id: 3, state: 'up' });
    await waitFor(() => watch.state(3) === 'up', 'the learner to see Node 3 up again');
    // Refusals travel back with their code too.
    expect(await onB.emitWithAck('classroom:command', { command: 'node:resume', input: { node: 3 } })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await onB.emitWithAck('classroom:command', { command: 'node:kill', input: { node: 9 } })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });

    // The instructor on A removes a learner whose tab is on B: the tab is told, through the adapter, and out of the class.
    const carol = connectTo(b.url, sockets);
    const carolId = value(await carol.emitWithAck('classroom:join', { code: created.code, name: 'Carol' })).learnerId!;
    const removed = new Promise<string>((resolve) => carol.once('classroom:removed', (r) => resolve(r.reason)));
    expect(value(await instructor.emitWithAck('classroom:remove', { learnerId: carolId }))).toMatchObject({ removed: true });
    expect(await removed).toMatch(/removed you/);
    expect(await carol.emitWithAck('classroom:progress', { lessonsRead: [], quizScores: {}, exercisesPassed: [] })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await carol.emitWithAck('classroom:join', { code: created.code, name: 'Carol' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    // "Follow me" from A reaches B; ending the class from B reaches the learner on B and removes the lab on A.
    const follow = new Promise<string>((resolve) => learner.once('classroom:follow', (f) => resolve(f.lesson)));
    value(await instructor.emitWithAck('classroom:follow', { lesson: 'failover', scenario: 'failover' }));
    expect(await follow).toBe('failover');
    const ended = new Promise<string>((resolve) => learner.once('classroom:ended', (e) => resolve(e.reason)));
    value(await onB.emitWithAck('classroom:end', {}));
    expect(await ended).toMatch(/instructor ended/);
    expect(await connectTo(b.url, sockets).emitWithAck('classroom:join', { code: created.code, name: 'Late' })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });
});

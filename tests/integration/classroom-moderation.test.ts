/**
 * The instructor's hold on a class, on a real server: removing a learner
 * (every tab of theirs told and out, their browser barred until allowed
 * back), the class told when the instructor's last tab leaves and when one
 * comes back (and ended if none does in time), and the instructor remembered
 * in their browser by a signed HttpOnly cookie instead of the token.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTRUCTOR_SESSION_PATH, type ClassroomJoined, type InstructorAway, type RosterEntry } from '@/lib/classroom';
import { createLabServer, type RunningLabServer } from '@/server/app-server';
import { configFromEnv } from '@/server/config';
import { waitFor } from './lab-fixture';
import { connectTo, emitRaw, value, type Client } from './classroom-fixture';
import { browserCookie } from '../helpers/browser-identity';

const TOKEN = 'moderate-the-room';
/** Short, so the test sees a class end for want of its instructor; the default is 15 minutes. */
const AWAY_MS = 2_500;
let server: RunningLabServer;
const sockets: Client[] = [];
const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-moderation-'));

beforeAll(async () => {
  server = await createLabServer(
    configFromEnv({
      port: 0,
      web: false,
      maxLabs: 6,
      warmLabs: 0,
      runRoot,
      coordinationUrl: null,
      instructorToken: TOKEN,
      classroomMaxLearners: 2,
      classroomInstructorAwayMs: AWAY_MS,
      sandbox: false,
    }),
  );
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.close();
  fs.rmSync(runRoot, { recursive: true, force: true });
});

/** A browser: the identity cookie a page hands out, as a Cookie header value. */
async function newBrowser(): Promise<string> {
  return browserCookie(server.url);
}

async function tab(cookie?: string): Promise<Client> {
  const socket = connectTo(server.url, sockets, cookie ? { cookie } : undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

async function createClass(): Promise<{ instructor: Client; joined: ClassroomJoined }> {
  const instructor = await tab(await newBrowser());
  return { instructor, joined: value(await instructor.emitWithAck('classroom:create', { token: TOKEN, name: 'Moderated' })) };
}

describe('removing a learner', () => {
  it('tells every tab of theirs and takes them out; their browser cannot rejoin until allowed back, and then rejoins as the same learner', async () => {
    const { instructor, joined: klass } = await createClass();
    const { code } = klass;
    const roster = new Map<string, RosterEntry>();
    instructor.on('classroom:roster', (u) => roster.set(u.learner.learnerId, u.learner));

    const ada = await newBrowser();
    const adaTabs = [await tab(ada), await tab(ada)];
    const adaJoins = await Promise.all(adaTabs.map((t) => t.emitWithAck('classroom:join', { code, name: 'Ada' })));
    const adaId = value(adaJoins[0]!).learnerId!;
    expect(value(adaJoins[1]!).learnerId).toBe(adaId);
    const grace = await tab(await newBrowser());
    value(await grace.emitWithAck('classroom:join', { code, name: 'Grace' }));
    await waitFor(() => roster.size === 2, 'both learners in the roster');

    // A learner may not remove anyone; an unknown learner is said to be unknown.
    expect(await emitRaw(grace, 'classroom:remove', { learnerId: adaId })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await instructor.emitWithAck('classroom:remove', { learnerId: 'A'.repeat(22) })).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: 'There is no such learner in this class' },
    });

    // Removed: both of Ada's tabs are told, in words, and no longer receive the class's events.
    const told = adaTabs.map((t) => new Promise<{ reason: string; key?: string }>((resolve) => t.once('classroom:removed', (i) => resolve({ reason: i.reason, key: i.words?.key }))));
    const entry = value(await instructor.emitWithAck('classroom:remove', { learnerId: adaId }));
    expect(entry).toMatchObject({ learnerId: adaId, name: 'Ada', removed: true, connected: false });
    for (const notice of await Promise.all(told))
      expect(notice).toEqual({ reason: 'The instructor removed you from this class; ask them if you should be in it.', key: 'refusals.classroom.removed' });
    const followsSeen: string[] = [];
    adaTabs[1]!.on('classroom:follow', (f) => followsSeen.push(f.lesson));
    const graceFollow = new Promise<string>((resolve) => grace.once('classroom:follow', (f) => resolve(f.lesson)));
    value(await instructor.emitWithAck('classroom:follow', { lesson: 'naive-lock' }));
    expect(await graceFollow).toBe('naive-lock');
    expect(followsSeen).toEqual([]);
    expect(await adaTabs[0]!.emitWithAck('classroom:progress', { lessonsRead: [], quizScores: {}, exercisesPassed: [] })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });

    // Not by rejoining, nor from a new tab of the same browser; and the seat is free for someone else.
    expect(await adaTabs[1]!.emitWithAck('classroom:join', { code, name: 'Ada' })).toMatchObject({ ok: false, error: { code: 'forbidden', words: { key: 'refusals.classroom.removed' } } });
    expect(await (await tab(ada)).emitWithAck('classroom:join', { code, name: 'Not Ada' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const hopper = await tab(await newBrowser());
    const hopperId = value(await hopper.emitWithAck('classroom:join', { code, name: 'Hopper' })).learnerId!;

    // Allowed back: the row stays (away) until Ada joins; with every seat taken she is told the class is full…
    expect(value(await instructor.emitWithAck('classroom:readmit', { learnerId: adaId }))).toMatchObject({ learnerId: adaId, removed: false, connected: false });
    expect(await adaTabs[0]!.emitWithAck('classroom:join', { code, name: 'Ada' })).toMatchObject({ ok: false, error: { code: 'classroom-full' } });
    // …and once a seat is free she is the same learner as before.
    value(await instructor.emitWithAck('classroom:remove', { learnerId: hopperId }));
    expect(value(await adaTabs[0]!.emitWithAck('classroom:join', { code, name: 'Ada' })).learnerId).toBe(adaId);
    await waitFor(() => roster.get(adaId)?.connected === true && roster.get(adaId)?.removed === false, 'Ada back in the roster');
    value(await instructor.emitWithAck('classroom:end', {}));
  });
});

describe('the instructor leaving', () => {
  it('tells learners when the last instructor tab leaves and when one is back; a second tab leaving tells nobody', async () => {
    const { instructor, joined: klass } = await createClass();
    const { code } = klass;
    expect(klass.instructorAway).toBeNull();
    const learner = await tab(await newBrowser());
    const notices: (InstructorAway | null)[] = [];
    learner.on('classroom:instructor', (n) => notices.push(n.away));
    expect(value(await learner.emitWithAck('classroom:join', { code, name: 'Ada' })).instructorAway).toBeNull();

    // Two instructor tabs; closing one is not leaving.
    const second = await tab();
    value(await second.emitWithAck('classroom:join', { code, instructorToken: TOKEN }));
    second.close();
    await waitFor(async () => (await server.io.in(`classroom:${code}:instructors`).fetchSockets()).length === 1, 'the second tab gone');
    instructor.close();
    const away = await waitFor(() => notices[0], 'the learner told the instructor left');
    expect(away).toEqual({ endsInMs: AWAY_MS });
    expect(notices).toHaveLength(1);
    // A learner who joins now is told too, with what is left of the time.
    const late = await tab(await newBrowser());
    const lateJoined = value(await late.emitWithAck('classroom:join', { code, name: 'Late' }));
    expect(lateJoined.instructorAway?.endsInMs).toBeGreaterThan(0);
    expect(lateJoined.instructorAway?.endsInMs).toBeLessThanOrEqual(AWAY_MS);

    // The instructor comes back (a reopened console): everyone is told, and the class does not end.
    const back = await tab();
    expect(value(await back.emitWithAck('classroom:join', { code, instructorToken: TOKEN })).instructorAway).toBeNull();
    await waitFor(() => notices.length === 2, 'the learner told the instructor is back');
    expect(notices[1]).toBeNull();
    const ended: string[] = [];
    learner.on('classroom:ended', (e) => ended.push(e.reason));
    await new Promise((resolve) => setTimeout(resolve, AWAY_MS + 500)); // longer than the time away it was given
    expect(ended).toEqual([]);
    value(await back.emitWithAck('classroom:end', {}));
  });

  it('ends the class when no instructor comes back in time, though its learners keep reporting progress', async () => {
    const { instructor, joined: klass } = await createClass();
    const learner = await tab(await newBrowser());
    value(await learner.emitWithAck('classroom:join', { code: klass.code, name: 'Ada' }));
    const ended = new Promise<{ reason: string; at: number }>((resolve) => learner.once('classroom:ended', (e) => resolve({ reason: e.reason, at: performance.now() })));
    const leftAt = performance.now();
    instructor.close();
    // Activity keeps a class from its idle end, not from its instructor's absence.
    const reporting = setInterval(() => void learner.emitWithAck('classroom:progress', { lessonsRead: ['naive-lock'], quizScores: {}, exercisesPassed: [] }), 300);
    try {
      const end = await ended;
      expect(end.reason).toBe('the instructor left and did not come back within 3 s');
      // Not before its time; and within a bound a person would not take for a hang.
      expect(end.at - leftAt).toBeGreaterThanOrEqual(AWAY_MS - 50);
      expect(end.at - leftAt).toBeLessThan(AWAY_MS + 5_000);
    } finally {
      clearInterval(reporting);
    }
    await waitFor(() => server.labs.get(klass.labId) === undefined, 'the class lab to be destroyed');
  });
});

describe('the instructor cookie', () => {
  const post = (body: unknown, headers: Record<string, string> = { origin: server.url }) =>
    fetch(`${server.url}${INSTRUCTOR_SESSION_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('is set on a real HTTP response for the ticket the token earned, HttpOnly and SameSite=Strict, and lets the next socket in as instructor', async () => {
    const { joined } = await createClass();
    expect(joined.instructorTicket).toMatch(/^ticket\./);
    const res = await post({ ticket: joined.instructorTicket });
    expect(res.status).toBe(204);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('locklab_instructor='));
    expect(setCookie).toBeDefined();
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).not.toContain(TOKEN);
    const cookie = setCookie!.split(';')[0]!;

    // Reopening the console: a new socket with the cookie joins as the instructor, with no token.
    const reopened = await tab(`${await newBrowser()}; ${cookie}`);
    const again = value(await reopened.emitWithAck('classroom:join', { code: joined.code, asInstructor: true }));
    expect(again).toMatchObject({ role: 'instructor', code: joined.code });
    expect(again.roster).toEqual([]);
    expect(again.instructorTicket).toMatch(/^ticket\./); // to renew the cookie
    // It may start a class too.
    expect(value(await reopened.emitWithAck('classroom:create', { name: 'On the cookie' })).role).toBe('instructor');

    // Without it, with a forged one, or with the ticket passed off as the cookie: refused, in words.
    const refused = {
      ok: false,
      error: { code: 'forbidden', message: 'This browser is not remembered as the instructor: give the instructor token', words: { key: 'refusals.classroom.notRemembered' } },
    };
    const [kind, expires, nonce, mac] = cookie.slice('locklab_instructor='.length).split('.');
    const forgeries = [
      '',
      `locklab_instructor=${kind}.${expires}.${nonce}.${'A'.repeat(mac!.length)}`,
      `locklab_instructor=${kind}.${Number(expires) + 86_400}.${nonce}.${mac}`,
      `locklab_instructor=${joined.instructorTicket}`,
      `locklab_instructor=${TOKEN}`,
    ];
    for (const forged of forgeries) {
      // A real browser (an identity it bought) with a forged instructor cookie, or none.
      const socket = await tab(forged ? `${await newBrowser()}; ${forged}` : undefined);
      expect(await socket.emitWithAck('classroom:join', { code: joined.code, asInstructor: true }), forged).toMatchObject(refused);
      expect(await socket.emitWithAck('classroom:create', { name: 'Forged' }), forged).toMatchObject(refused);
    }
  });

  it('is handed out only for a valid ticket, to a page of this site', async () => {
    const { joined } = await createClass();
    expect((await post({ ticket: 'ticket.9999999999.AAAAAAAAAAAAAAAA.' + 'A'.repeat(43) })).status).toBe(403);
    expect((await post({ ticket: TOKEN })).status).toBe(403);
    expect((await post({ ticket: joined.instructorTicket }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ ticket: joined.instructorTicket }, {})).status).toBe(403);
    expect((await post({ ticket: 'x'.repeat(5_000) })).status).toBe(413);
    const forget = await fetch(`${server.url}${INSTRUCTOR_SESSION_PATH}`, { method: 'DELETE', headers: { origin: server.url } });
    expect(forget.status).toBe(204);
    expect(forget.headers.getSetCookie()[0]).toMatch(/^locklab_instructor=; .*Max-Age=0/);
  });
});

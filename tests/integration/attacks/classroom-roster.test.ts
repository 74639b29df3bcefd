/**
 * Roster stuffing: one browser trying to fill a class's seats (the tester's
 * "one learner socket filled all 200 seats in 40 s"). A seat belongs to a
 * browser identity, so a script joining again and again — on one socket, or
 * on every socket its browser may open — is one learner; a real learner in
 * another browser still joins; the seat count bounds the class as a whole;
 * and a seat the instructor frees by removing someone is there for the next.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassroomJoined, RosterEntry } from '@/lib/classroom';
import type { Result } from '@/lib/result';
import { bystander, startAttackServer, value, type AttackServer, type Tab } from './attack-fixture';

const TOKEN = 'instructor-token-for-roster-attacks';
const SEATS = 12;

let attack: AttackServer;
beforeAll(async () => {
  attack = await startAttackServer({ maxLabs: 6, socketsPerBrowser: 8, classroomMaxLearners: SEATS, instructorToken: TOKEN, coordinationUrl: null });
});
afterAll(async () => {
  await attack?.close();
});

/** The class's roster as the server keeps it: what an instructor opening the console now is sent. */
async function rosterOf(code: string): Promise<RosterEntry[]> {
  const look = await attack.tab();
  try {
    return value(await look.emitWithAck('classroom:join', { code, instructorToken: TOKEN })).roster ?? [];
  } finally {
    look.close();
  }
}
const seated = (roster: RosterEntry[]) => roster.filter((e) => !e.removed);

describe('roster stuffing', () => {
  let code: string;
  let instructor: Tab;

  it('one browser joining 160 times, from every socket it may open, holds one seat; a second real learner still joins', async () => {
    const watcher = await bystander(attack);
    instructor = await attack.tab({ cookie: await attack.browser() });
    code = value(await instructor.emitWithAck('classroom:create', { token: TOKEN, name: 'Stuffed' })).code;

    // The attacker: one browser (one cookie), as many sockets as it may open, each joining under new names as fast as it can.
    const cookie = await attack.browser();
    const tabs = await Promise.all(Array.from({ length: 8 }, () => attack.tab({ cookie })));
    const answers: Result<ClassroomJoined>[] = await Promise.all(
      tabs.flatMap((tab, t) => Array.from({ length: 20 }, (_, i) => tab.emitWithAck('classroom:join', { code, name: `bot ${t}-${i}` }))),
    );
    expect(answers).toHaveLength(160);
    const joined = answers.filter((a): a is { ok: true; value: ClassroomJoined } => a.ok).map((a) => a.value);
    // Every join was let in (within each socket's allowance) — as the same learner.
    expect(joined.length).toBeGreaterThanOrEqual(8);
    expect(new Set(joined.map((j) => j.learnerId)).size).toBe(1);
    for (const refused of answers.filter((a) => !a.ok)) expect(refused).toMatchObject({ ok: false, error: { code: 'rate-limited' } });
    expect(seated(await rosterOf(code))).toHaveLength(1);

    // The same browser without its cookie's help: one socket, no cookie, joins over and over — still one seat.
    const bare = await attack.tab();
    const bareAnswers = await Promise.all(Array.from({ length: 20 }, (_, i) => bare.emitWithAck('classroom:join', { code, name: `bare ${i}` })));
    expect(new Set(bareAnswers.filter((a) => a.ok).map((a) => (a.ok ? a.value.learnerId : null))).size).toBe(1);
    expect(seated(await rosterOf(code))).toHaveLength(2);

    // A real learner in another browser joins at once, and is a learner of their own.
    const ada = await attack.tab({ cookie: await attack.browser() });
    const adaJoined = value(await ada.emitWithAck('classroom:join', { code, name: 'Ada' }));
    expect(adaJoined.role).toBe('learner');
    expect(adaJoined.learnerId).not.toBe(joined[0]!.learnerId);
    const roster = seated(await rosterOf(code));
    expect(roster).toHaveLength(3);
    expect(roster.map((e) => e.name)).toContain('Ada');

    // Meanwhile another learner's own lab kept working.
    const { ended } = await watcher.run();
    expect(ended.outcome.status).toBe('completed');
    expect(ended.verdict.valid).toBe('held');
  }, 120_000);

  it('the seat count bounds the class however many browsers come; the instructor removes one and the next learner gets the seat', async () => {
    // Fill the class to the last seat with distinct browsers, then some more.
    const browsers = await Promise.all(Array.from({ length: SEATS + 3 }, () => attack.browser()));
    const answers = await Promise.all(
      browsers.map(async (cookie, i) => {
        const tab = await attack.tab({ cookie });
        return { tab, answer: await tab.emitWithAck('classroom:join', { code, name: `learner ${i}` }) };
      }),
    );
    const admitted = answers.filter((a) => a.answer.ok);
    const full = answers.filter((a) => !a.answer.ok);
    expect(admitted).toHaveLength(SEATS - 3); // three seats were taken in the test before
    expect(full).toHaveLength(6);
    for (const { answer } of full) expect(answer).toMatchObject({ ok: false, error: { code: 'classroom-full', message: `This classroom is full: it has its ${SEATS} learners. Ask the instructor.` } });
    expect(seated(await rosterOf(code))).toHaveLength(SEATS);

    // The instructor removes one learner: their tab is told, and their seat goes to the next who asks.
    const removedTab = admitted[0]!.tab;
    const removedId = admitted[0]!.answer.ok ? admitted[0]!.answer.value.learnerId! : '';
    const told = new Promise<string>((resolve) => removedTab.once('classroom:removed', (info) => resolve(info.reason)));
    expect(value(await instructor.emitWithAck('classroom:remove', { learnerId: removedId }))).toMatchObject({ learnerId: removedId, removed: true });
    expect(await told).toMatch(/removed you from this class/);
    const next = full[0]!.tab;
    expect(value(await next.emitWithAck('classroom:join', { code, name: 'Next in line' })).role).toBe('learner');
    // The removed browser cannot come back on its own, in any tab.
    expect(await removedTab.emitWithAck('classroom:join', { code, name: 'Back again' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const roster = await rosterOf(code);
    expect(seated(roster)).toHaveLength(SEATS);
    expect(roster.find((e) => e.learnerId === removedId)).toMatchObject({ removed: true, connected: false });
  }, 60_000);
});

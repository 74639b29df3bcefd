/** The classroom view's pure parts: push routing before the ack, reducers, progress reports, join codes, saved credentials. */
import { describe, expect, it } from 'vitest';
import { CLASSROOM_LAB_COMMANDS, normalizeJoinCode, type ClassroomJoined, type RosterEntry } from '@/lib/classroom';
import type { HistoryEvent } from '@/lib/history';
import {
  CLASSROOM_LAB_COMMAND_NAMES,
  emptyClassroomData,
  followHref,
  isClassroomLabCommand,
  LabPushRouter,
  normalizeCode,
  progressReport,
  reduceFollow,
  reduceJoined,
  reduceRosterEntry,
  sameReport,
  savedLearner,
  saveCredentials,
  type CourseLesson,
  type LabPush,
} from '@/components/classroom/classroom-state';

const batch = (labId: string, from: number): LabPush => ({
  kind: 'history',
  batch: { labId, from, events: [{ seq: from, t: from, type: 'scenario', step: 's', detail: 'd' } as HistoryEvent] },
});

describe('LabPushRouter', () => {
  it('holds pushes until the ack names the lab, then applies that lab’s in arrival order and drops the others', () => {
    const applied: LabPush[] = [];
    const router = new LabPushRouter((p) => applied.push(p));
    router.expectJoin();
    router.push('own-lab', batch('own-lab', 0));
    router.push('class-lab', batch('class-lab', 0));
    router.push('class-lab', batch('class-lab', 1));
    expect(applied).toEqual([]);
    router.joined('class-lab');
    expect(applied.map((p) => (p.kind === 'history' ? `${p.batch.labId}:${p.batch.from}` : p.kind))).toEqual(['class-lab:0', 'class-lab:1']);
    router.push('own-lab', batch('own-lab', 1));
    router.push('class-lab', batch('class-lab', 2));
    expect(applied).toHaveLength(3);
    expect(router.current).toBe('class-lab');
  });

  it('holds again during a re-join, and forgets everything on reset', () => {
    const applied: LabPush[] = [];
    const router = new LabPushRouter((p) => applied.push(p));
    router.expectJoin();
    router.joined('a');
    router.expectJoin();
    router.push('a', batch('a', 5));
    expect(applied).toHaveLength(0);
    router.joined('a');
    expect(applied).toHaveLength(1);
    router.reset();
    router.push('a', batch('a', 6));
    expect(applied).toHaveLength(1);
    expect(router.current).toBeNull();
  });
});

const entry = (learnerId: string, name: string, joinedAt: number, patch: Partial<RosterEntry> = {}): RosterEntry => ({
  learnerId,
  name,
  connected: true,
  joinedAt,
  updatedAt: joinedAt,
  progress: { lessonsRead: [], quizScores: {}, exercisesPassed: [] },
  ...patch,
});

describe('classroom reducers', () => {
  it('takes the join (roster in joining order) and replaces a learner’s entry on each update', () => {
    const joined = {
      code: 'K7M2Q-9XR4T-HB3WZ',
      name: 'Locks 101',
      link: '/classroom/K7M2Q-9XR4T-HB3WZ',
      role: 'instructor',
      learnerId: null,
      labId: 'lab-1',
      lab: {} as ClassroomJoined['lab'],
      follow: null,
      demo: null,
      roster: [entry('b', 'Grace', 20), entry('a', 'Ada', 10)],
      maxLearners: 30,
      instructorAway: null,
    } satisfies ClassroomJoined;
    let data = reduceJoined(emptyClassroomData(), joined);
    expect(data.status).toBe('joined');
    expect(data.info).toMatchObject({ code: joined.code, role: 'instructor', labId: 'lab-1' });
    expect(data.info).not.toHaveProperty('lab');
    expect(data.roster.map((e) => e.name)).toEqual(['Ada', 'Grace']);
    data = reduceRosterEntry(data, entry('a', 'Ada', 10, { connected: false }));
    expect(data.roster.map((e) => [e.name, e.connected])).toEqual([
      ['Ada', false],
      ['Grace', true],
    ]);
    data = reduceRosterEntry(data, entry('c', 'Linus', 30));
    expect(data.roster).toHaveLength(3);
  });

  it('counts each "follow me", so the same target sent twice still counts', () => {
    let data = reduceFollow(emptyClassroomData(), { lesson: 'redlock', scenario: null });
    data = reduceFollow(data, { lesson: 'redlock', scenario: null });
    expect(data.followCount).toBe(2);
    expect(followHref({ lesson: 'redlock', scenario: 'gc-pause' })).toBe('/lessons/redlock?scenario=gc-pause');
    expect(followHref({ lesson: 'redlock', scenario: null })).toBe('/lessons/redlock');
  });
});

describe('progressReport', () => {
  const course: CourseLesson[] = [
    { slug: 'naive-lock', title: 'A naive lock', quizQuestionIds: ['q1', 'q2', 'q3'], hasExercise: true, scenarios: [] },
    { slug: 'redlock', title: 'Redlock', quizQuestionIds: ['r1', 'r2'], hasExercise: true, scenarios: [] },
  ];

  it('reports lessons read, scores against the quiz’s question count, and exercises passed, in course order', () => {
    const report = progressReport(
      {
        redlock: { read: true, passed: true, quiz: { r1: { correct: true } } },
        'naive-lock': { read: true, passed: false, quiz: { q1: { correct: true }, q2: { correct: false }, gone: { correct: true } } },
        playground: { read: true, passed: true, quiz: {} },
      },
      course,
    );
    expect(report).toEqual({
      lessonsRead: ['naive-lock', 'redlock'],
      quizScores: { 'naive-lock': { correct: 1, total: 3 }, redlock: { correct: 1, total: 2 } },
      exercisesPassed: ['redlock'],
    });
    expect(sameReport(null, report)).toBe(false);
    expect(sameReport(progressReport({ redlock: { read: true, passed: true, quiz: { r1: { correct: true } } } }, course), report)).toBe(false);
  });

  it('reports nothing for a browser without progress', () => {
    expect(progressReport({}, course)).toEqual({ lessonsRead: [], quizScores: {}, exercisesPassed: [] });
  });
});

describe('the zod-free copies of lib/classroom', () => {
  it('normalizes join codes exactly as the server does', () => {
    for (const typed of ['k7m2q 9xr4t hb3wz', 'K7M2Q-9XR4T-HB3WZ', 'o0o0o-iiiii-lllll', 'abc', 'K7M2Q-9XR4T-HB3WU', '']) {
      expect(normalizeCode(typed), typed).toBe(normalizeJoinCode(typed));
    }
  });

  it('knows the same instructor lab commands', () => {
    expect([...CLASSROOM_LAB_COMMAND_NAMES].sort()).toEqual([...CLASSROOM_LAB_COMMANDS].sort());
    expect(isClassroomLabCommand('node:kill')).toBe(true);
    expect(isClassroomLabCommand('lab:reset')).toBe(false);
  });
});

describe('saved credentials', () => {
  it('keeps a learner’s name and id per class, and ignores what is not one', () => {
    const items = new Map<string, string>();
    const storage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
    saveCredentials(storage, { role: 'learner', code: 'C', name: 'Ada', learnerId: 'abcdefghijklmnop' });
    expect(savedLearner(storage, 'C')).toEqual({ role: 'learner', code: 'C', name: 'Ada', learnerId: 'abcdefghijklmnop' });
    expect(savedLearner(storage, 'D')).toBeNull();
    items.set('lock-lab:classroom:D:learner', '{not json');
    expect(savedLearner(storage, 'D')).toBeNull();
  });
});


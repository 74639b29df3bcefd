/**
 * "Check my solution" in the browser: the exercise slice's reducers, the
 * progress words, and the socket client's checkExercise against a stand-in
 * server (real socket.io over loopback): progress pushes folded into the
 * store, the grader's answer kept, another lab's progress ignored.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Server } from 'socket.io';
import { io } from 'socket.io-client';
import type { GradeResult } from '@/lib/grading';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { ok } from '@/lib/result';
import { emptyExerciseData, reduceExerciseFailed, reduceExerciseProgress, reduceExerciseRequested, reduceExerciseResult } from '@/components/lab/exercise-state';
import { createLabStore } from '@/components/lab/lab-store';
import { emptyRunData, reduceRunEnded, reduceRunStarted } from '@/components/lab/run-state';
import { check } from '@/lib/checker';
import { history } from './helpers/history-builder';
import { LabSocketClient } from '@/components/lab/socket-client';
import { createTranslator } from 'next-intl';
import { checkingWords } from '@/components/workspace/exercise-words';
import { english } from '@/messages/catalogue';
import { catalogueOf } from '@/messages/read-catalogue';

const failed: GradeResult = {
  slug: 'safe-release',
  passed: false,
  total: 3,
  runs: [{ scenarioId: 'late-release-fixed', scenarioTitle: 'Fix it', seed: 21, runId: 'run-9', passed: false, reason: 'two holders' }],
  failure: { runId: 'run-9', counterExample: null, message: 'two holders', hint: 'Compare, then delete' },
};

describe('exercise slice', () => {
  it('follows a check from request to answer, ignoring progress of another lesson or after the answer', () => {
    let s = reduceExerciseRequested(emptyExerciseData(), 'safe-release');
    expect(s).toMatchObject({ phase: 'checking', slug: 'safe-release', progress: null, result: null });
    s = reduceExerciseProgress(s, { slug: 'naive-lock', done: 0, total: 6, current: null });
    expect(s.progress).toBeNull();
    s = reduceExerciseProgress(s, { slug: 'safe-release', done: 1, total: 3, current: { scenarioId: 'late-release-fixed', seed: 22 } });
    expect(s.progress?.done).toBe(1);
    s = reduceExerciseResult(s, failed);
    expect(s).toMatchObject({ phase: 'done', result: { passed: false } });
    expect(reduceExerciseProgress(s, { slug: 'safe-release', done: 3, total: 3, current: null })).toBe(s);
  });

  it('keeps an error in words, and a new request forgets the last answer', () => {
    const s = reduceExerciseFailed(reduceExerciseRequested(emptyExerciseData(), 'safe-release'), 'No answer');
    expect(s).toMatchObject({ phase: 'error', error: 'No answer' });
    expect(reduceExerciseRequested(reduceExerciseResult(s, failed), 'safe-release')).toMatchObject({ phase: 'checking', result: null, error: null });
  });

  it('says which graded run is going', () => {
    const scenarios = [{ id: 'late-release-fixed', title: 'Fix it: release only your own token' }];
    const t = createTranslator({ locale: 'en', messages: english, namespace: 'exercise' });
    expect(checkingWords(t, { slug: 's', done: 1, total: 6, current: { scenarioId: 'late-release-fixed', seed: 17 } }, scenarios, 6)).toBe(
      'Checking 2 of 6: Fix it: release only your own token — random seed 17',
    );
    expect(checkingWords(t, null, scenarios, 3)).toBe('Checking your solution: 3 graded runs…');
    expect(checkingWords(t, { slug: 's', done: 0, total: 2, current: { scenarioId: 'unknown-id', seed: 1 } }, scenarios, 2)).toContain('unknown-id');
  });

  it('names a hidden check by its place among the hidden ones, in the page\'s language, never by the server\'s English title', () => {
    const hidden = { slug: 's', done: 7, total: 12, current: { scenarioId: 'hidden', seed: 3, title: 'Hidden check 2 of 5', hidden: { n: 2, total: 5 } } };
    const words = (locale: 'en' | 'ar' | 'nb') => checkingWords(createTranslator({ locale, messages: catalogueOf(locale), namespace: 'exercise' }), hidden, [], 12);
    expect(words('en')).toBe('Checking 8 of 12: hidden check 2 of 5');
    expect(words('nb')).toBe('Sjekker 8 av 12: skjult sjekk 2 av 5');
    expect(words('ar')).toContain('الفحص المخفي 2 من 5');
    for (const locale of ['ar', 'nb'] as const) expect(words(locale)).not.toContain('Hidden');
  });
});

describe('graded runs in the run slice', () => {
  it('a run this tab did not start (a graded one) replaces the last run: its verdict and end are not carried over', () => {
    const violated = check(history().at(0).enter(1).at(5).enter(2).at(10).exit(1).at(20).exit(2).build());
    let run = reduceRunStarted(emptyRunData(), { runId: 'run-1', clients: 3, scenario: null, seed: 1, startedAt: 0 });
    run = reduceRunEnded(run, { runId: 'run-1', verdict: violated, outcome: { runId: 'run-1', status: 'completed', clients: [], durationMs: 40 } });
    const graded = reduceRunStarted(run, { runId: 'run-2', clients: 3, scenario: null, seed: 2, startedAt: 100 });
    expect(graded).toMatchObject({ phase: 'running', info: { runId: 'run-2' }, verdict: null, ended: null });
  });
});

describe('LabSocketClient.checkExercise', () => {
  let close: (() => Promise<void>) | null = null;
  let client: LabSocketClient | null = null;
  afterEach(async () => {
    client?.stop();
    await close?.();
    client = null;
    close = null;
  });

  it('sends slug, code and the page language, folds the progress pushes, and keeps the answer', async () => {
    const http = createServer();
    const server = new Server<ClientToServerEvents, ServerToClientEvents>(http);
    const received: unknown[] = [];
    server.on('connection', (socket) => {
      socket.on('lab:join', (_input, ack) => ack(ok({ labId: 'lab-1', topology: { kind: 'masters', nodes: 1, persistence: 'none' }, clients: 3, nodes: [], links: [], replication: null, now: 0 })));
      socket.on('exercise:check', (input, ack) => {
        received.push(input);
        socket.emit('exercise:progress', { labId: 'lab-other', slug: input.slug, done: 2, total: 3, current: { scenarioId: 'x', seed: 99 } });
        socket.emit('exercise:progress', { labId: 'lab-1', slug: input.slug, done: 0, total: 3, current: { scenarioId: 'late-release-fixed', seed: 21 } });
        // Answer only once the test has seen the progress.
        socket.once('answer-now' as never, () => ack(ok(failed)));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((r) => void server.close(() => r()));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const store = createLabStore();
    let raw: ReturnType<typeof io> | null = null;
    client = new LabSocketClient({
      store,
      storage: null,
      openSocket: () => {
        raw = io(url, { autoConnect: false, transports: ['websocket'] });
        return raw;
      },
    });
    client.start();
    await vi.waitFor(() => expect(store.getState().connection).toBe('ready'));

    const answer = client.checkExercise('safe-release', 'code()', 'nb');
    expect(store.getState().exercise.phase).toBe('checking');
    await vi.waitFor(() => expect(store.getState().exercise.progress?.current?.seed).toBe(21));
    expect(store.getState().exercise.progress?.done).toBe(0);
    (raw as unknown as { emit(e: string): void } | null)?.emit('answer-now');
    const result = await answer;
    expect(result.ok && result.value.passed).toBe(false);
    // The page's language travels with the check: the grader answers in it.
    expect(received).toEqual([{ slug: 'safe-release', code: 'code()', locale: 'nb' }]);
    expect(store.getState().exercise).toMatchObject({ phase: 'done', result: { failure: { message: 'two holders' } } });
  });
});

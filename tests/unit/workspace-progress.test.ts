/** The progress and code stores: actions, persistence in storage, hydration after mount. */
import { describe, expect, it } from 'vitest';
import { createJSONStorage } from 'zustand/middleware';
import { codeFor, createCodeStore, CODE_STORAGE_KEY } from '@/components/editor/code-store';
import { createProgressStore, PROGRESS_STORAGE_KEY } from '@/components/progress/progress-store';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    storage: { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) },
  };
}

describe('progress store', () => {
  it('records read, runs, quiz answers and a passed exercise per lesson, and keeps them', async () => {
    const mem = memoryStorage();
    const store = createProgressStore(createJSONStorage(() => mem.storage));
    await store.persist.rehydrate();
    const { actions } = store.getState();
    actions.markRead('redlock');
    actions.markRan('redlock');
    actions.markRan('redlock');
    actions.answerQuiz('redlock', 'q1', 'b', true);
    actions.markPassed('redlock');
    expect(store.getState().lessons.redlock).toMatchObject({ read: true, runs: 2, passed: true, quiz: { q1: { answer: 'b', correct: true } } });

    const again = createProgressStore(createJSONStorage(() => mem.storage));
    expect(again.getState().lessons).toEqual({});
    await again.persist.rehydrate();
    expect(again.getState().hydrated).toBe(true);
    expect(again.getState().lessons.redlock?.runs).toBe(2);
    expect(JSON.parse(mem.map.get(PROGRESS_STORAGE_KEY) ?? '{}').state.lessons.redlock.read).toBe(true);

    again.getState().actions.reset('redlock');
    expect(again.getState().lessons.redlock).toBeUndefined();
  });
});

describe('code store', () => {
  it('keeps code per lesson, falls back to the starter, forgets on reset', async () => {
    const mem = memoryStorage();
    const store = createCodeStore(createJSONStorage(() => mem.storage));
    await store.persist.rehydrate();
    expect(codeFor(store.getState(), 'a', 'starter A')).toBe('starter A');
    store.getState().setCode('a', 'mine');
    const reloaded = createCodeStore(createJSONStorage(() => mem.storage));
    await reloaded.persist.rehydrate();
    expect(codeFor(reloaded.getState(), 'a', 'starter A')).toBe('mine');
    expect(codeFor(reloaded.getState(), 'b', 'starter B')).toBe('starter B');
    reloaded.getState().forget('a');
    expect(codeFor(reloaded.getState(), 'a', 'starter A')).toBe('starter A');
    expect(mem.map.has(CODE_STORAGE_KEY)).toBe(true);
  });
});

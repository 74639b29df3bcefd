'use client';
/**
 * Gives the app the learner's progress store, created once per provider and
 * read from localStorage after mount. Mounted in the root layout so the
 * course index and every lesson share it.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createProgressStore, PROGRESS_STORAGE_KEY, type ProgressActions, type ProgressState, type ProgressStore } from './progress-store';

const ProgressContext = createContext<ProgressStore | null>(null);

export function ProgressProvider({ children }: { children: ReactNode }) {
  const [store] = useState(createProgressStore);
  useEffect(() => {
    void Promise.resolve(store.persist.rehydrate()).then(() => store.setState({ hydrated: true }));
    // Progress made in another tab (a lesson opened beside a class) shows here too.
    const onStorage = (event: StorageEvent) => {
      if (event.key === PROGRESS_STORAGE_KEY) void store.persist.rehydrate();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [store]);
  return <ProgressContext.Provider value={store}>{children}</ProgressContext.Provider>;
}

function useProgressStore(): ProgressStore {
  const store = useContext(ProgressContext);
  if (!store) throw new Error('useProgress… hooks must be used inside <ProgressProvider>');
  return store;
}

/** Reads progress through a selector; wrap object-returning selectors in useShallow. */
export function useProgress<T>(selector: (state: ProgressState) => T): T {
  return useStore(useProgressStore(), selector);
}

/** markVisited, markRead, markRan, answerQuiz, markPassed, reset. */
export function useProgressActions(): ProgressActions {
  return useProgress((s) => s.actions);
}

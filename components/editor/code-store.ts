/**
 * The learner's code, per lesson (and the playground), kept in this browser
 * with zustand persist. One store per workspace provider, hydrated after
 * mount so server and first browser render agree.
 */
import { createStore } from 'zustand/vanilla';
import { createJSONStorage, persist, type PersistOptions } from 'zustand/middleware';

export const CODE_STORAGE_KEY = 'lock-lab:code';

export interface CodeState {
  /** Code by lesson slug; a lesson without an entry shows its starter. */
  codes: Record<string, string>;
  hydrated: boolean;
  setCode(slug: string, code: string): void;
  /** Back to the starter: the saved code is forgotten. */
  forget(slug: string): void;
}

type Persisted = Pick<CodeState, 'codes'>;

export function createCodeStore(storage: PersistOptions<CodeState, Persisted>['storage'] = createJSONStorage<Persisted>(() => localStorage)) {
  return createStore<CodeState>()(
    persist(
      (set) => ({
        codes: {},
        hydrated: false,
        setCode: (slug, code) => set((s) => (s.codes[slug] === code ? s : { codes: { ...s.codes, [slug]: code } })),
        forget: (slug) =>
          set((s) => {
            const codes = { ...s.codes };
            delete codes[slug];
            return { codes };
          }),
      }),
      {
        name: CODE_STORAGE_KEY,
        version: 1,
        storage,
        skipHydration: true,
        partialize: (s) => ({ codes: s.codes }),
        merge: (persisted, current) => ({ ...current, ...(persisted as Persisted | undefined), hydrated: true }),
      },
    ),
  );
}

export type CodeStore = ReturnType<typeof createCodeStore>;

/** The code a lesson's editor shows: the saved one, else the starter. */
export const codeFor = (state: Pick<CodeState, 'codes'>, slug: string, starter: string): string => state.codes[slug] ?? starter;

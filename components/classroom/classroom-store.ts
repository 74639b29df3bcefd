/**
 * The zustand store of one classroom view (created per provider, like the
 * lab store). Only the classroom client writes it; components read it
 * through selectors.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ClassroomDemoStarted, ClassroomFollow, ClassroomJoined, DemoSummary, InstructorAway, RosterEntry } from '@/lib/classroom';
import {
  emptyClassroomData,
  reduceDemo,
  reduceEnded,
  reduceFollow,
  reduceInstructor,
  reduceJoined,
  reduceRemoved,
  reduceRosterEntry,
  type ClassroomData,
  type ClassroomNote,
  type ClassroomStatus,
} from './classroom-state';
import type { Words } from '@/lib/words';

export interface ClassroomActions {
  setStatus(status: ClassroomStatus, message?: string | null, errorCode?: string | null, note?: ClassroomNote | null, words?: Words | null): void;
  joined(joined: ClassroomJoined): void;
  rosterEntry(entry: RosterEntry): void;
  follow(follow: ClassroomFollow): void;
  demo(demo: ClassroomDemoStarted): void;
  ended(reason: string, note?: ClassroomNote | null, words?: Words | null): void;
  demos(demos: DemoSummary[]): void;
  /** The instructor left (with when the class ends) or came back (null). */
  instructor(away: InstructorAway | null): void;
  removed(reason: string, words?: Words | null): void;
}

export interface ClassroomState extends ClassroomData {
  actions: ClassroomActions;
}

export type ClassroomStore = StoreApi<ClassroomState>;

export function createClassroomStore(): ClassroomStore {
  return createStore<ClassroomState>()((set) => ({
    ...emptyClassroomData(),
    actions: {
      setStatus: (status, message = null, errorCode = null, note = null, words = null) => set({ status, message, errorCode, note, messageWords: words }),
      joined: (joined) => set((s) => reduceJoined(s, joined)),
      rosterEntry: (entry) => set((s) => reduceRosterEntry(s, entry)),
      follow: (follow) => set((s) => reduceFollow(s, follow)),
      demo: (demo) => set((s) => reduceDemo(s, demo)),
      ended: (reason, note = null, words = null) => set((s) => reduceEnded(s, reason, note, words)),
      demos: (demos) => set({ demos }),
      instructor: (away) => set((s) => reduceInstructor(s, away, Date.now())),
      removed: (reason, words = null) => set((s) => reduceRemoved(s, reason, words)),
    },
  }));
}

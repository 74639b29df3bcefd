'use client';
/**
 * Gives a classroom page its class: a classroom store, a lab store for the
 * shared lab and the ClassroomClient that feeds both, created once per
 * provider. Inside, the lab components (node cards, timeline, verdict, …)
 * work unchanged through LabViewProvider; for a learner they are read-only.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { LabViewProvider } from '@/components/lab/lab-provider';
import { createLabStore } from '@/components/lab/lab-store';
import { ClassroomClient } from './classroom-client';
import { savedInstructor, savedLearner, tabStorage, type CredentialStorage } from './classroom-state';
import { createClassroomStore, type ClassroomState, type ClassroomStore } from './classroom-store';

interface ClassroomContextValue {
  store: ClassroomStore;
  client: ClassroomClient;
  storage: CredentialStorage | null;
}

const ClassroomContext = createContext<ClassroomContextValue | null>(null);

export interface ClassroomLabProviderProps {
  code: string;
  role: 'instructor' | 'learner';
  children: ReactNode;
}

export function ClassroomLabProvider({ code, role, children }: ClassroomLabProviderProps) {
  const [value] = useState(() => {
    const labStore = createLabStore();
    const store = createClassroomStore();
    const storage = typeof window === 'undefined' ? null : tabStorage();
    return { labStore, store, storage, client: new ClassroomClient({ labStore, classStore: store, storage }) };
  });

  useEffect(() => {
    const saved = role === 'instructor' ? savedInstructor(value.storage, code) : savedLearner(value.storage, code);
    value.client.start(saved);
    return () => value.client.stop();
  }, [value, code, role]);

  return (
    <ClassroomContext.Provider value={value}>
      <LabViewProvider store={value.labStore} client={value.client.lab} readOnly={role === 'learner'}>
        {children}
      </LabViewProvider>
    </ClassroomContext.Provider>
  );
}

function useClassroomContext(): ClassroomContextValue {
  const value = useContext(ClassroomContext);
  if (!value) throw new Error('useClassroom… hooks must be used inside <ClassroomLabProvider>');
  return value;
}

export function useClassroom<T>(selector: (state: ClassroomState) => T): T {
  return useStore(useClassroomContext().store, selector);
}

export function useClassroomClient(): ClassroomClient {
  return useClassroomContext().client;
}

export function useClassroomStorage(): CredentialStorage | null {
  return useClassroomContext().storage;
}

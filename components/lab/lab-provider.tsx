'use client';
/**
 * Gives a subtree its own lab: a store and the socket client that feeds it,
 * both created once per provider (never module globals, so server rendering
 * cannot share them between requests). The socket opens only in the browser,
 * after mount.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createLabStore, type LabState, type LabStore } from './lab-store';
import { LabSocketClient } from './socket-client';
import type { TopologyInput } from '@/lib/schemas';

interface LabContextValue {
  store: LabStore;
  client: LabSocketClient;
}

const LabContext = createContext<LabContextValue | null>(null);

function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be blocked (privacy settings); the tab then gets a new lab on reload.
    return null;
  }
}

export interface LabProviderProps {
  children: ReactNode;
  /** The lab shape this view needs (a lesson's); the default is five independent masters. */
  topology?: TopologyInput;
  /** Client slots in the link grid. */
  clients?: number;
}

export function LabProvider({ children, topology, clients }: LabProviderProps) {
  const [value] = useState<LabContextValue>(() => {
    const store = createLabStore();
    const storage = typeof window === 'undefined' ? null : tabStorage();
    const want = topology || clients ? { ...(topology ? { topology } : {}), ...(clients ? { clients } : {}) } : undefined;
    return { store, client: new LabSocketClient({ store, storage, ...(want ? { want } : {}) }) };
  });

  useEffect(() => {
    value.client.start();
    return () => value.client.stop();
  }, [value]);

  return <LabContext.Provider value={value}>{children}</LabContext.Provider>;
}

function useLabContext(): LabContextValue {
  const value = useContext(LabContext);
  if (!value) throw new Error('useLab… hooks must be used inside <LabProvider>');
  return value;
}

/** Reads the lab store through a selector; wrap object-returning selectors in useShallow. */
export function useLabStore<T>(selector: (state: LabState) => T): T {
  return useStore(useLabContext().store, selector);
}

/** The commands of the tab's lab (kill, restart, pause, …), each resolving to a Result. */
export function useLabClient(): LabSocketClient {
  return useLabContext().client;
}

/** The store itself, for event handlers that need a one-off read (e.g. exporting a run); render through useLabStore. */
export function useLabStoreApi(): LabStore {
  return useLabContext().store;
}

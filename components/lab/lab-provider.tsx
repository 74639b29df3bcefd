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
  /** Someone else drives this lab (a classroom's learner): its controls are not shown. */
  readOnly?: boolean;
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
  /** Which page this is (a lesson's slug): the tab's one lab is rebuilt clean when the tab arrives from another page. */
  page?: string;
}

export function LabProvider({ children, topology, clients, page }: LabProviderProps) {
  const [value] = useState<LabContextValue>(() => {
    const store = createLabStore();
    const storage = typeof window === 'undefined' ? null : tabStorage();
    const want = topology || clients ? { ...(topology ? { topology } : {}), ...(clients ? { clients } : {}) } : undefined;
    // The tab as the learner knows it (its page's title): shown by the tab a lab moves away from, as where it went.
    const place = () => document.title;
    return { store, client: new LabSocketClient({ store, storage, place, ...(want ? { want } : {}), ...(page ? { page } : {}) }) };
  });

  useEffect(() => {
    value.client.start();
    return () => value.client.stop();
  }, [value]);

  return <LabContext.Provider value={value}>{children}</LabContext.Provider>;
}

export interface LabViewProviderProps {
  children: ReactNode;
  /** A store fed by someone else (e.g. a classroom's client), which also starts and stops it. */
  store: LabStore;
  /** The commands the controls call (e.g. a LabSocketClient with a classroom transport). */
  client: LabSocketClient;
  readOnly?: boolean;
}

/** Shows a lab that this provider neither creates nor connects: the same components, another source. */
export function LabViewProvider({ children, store, client, readOnly = false }: LabViewProviderProps) {
  const [value, setValue] = useState<LabContextValue>(() => ({ store, client, readOnly }));
  if (value.store !== store || value.client !== client || value.readOnly !== readOnly) setValue({ store, client, readOnly });
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

/** True when this lab is watched, not driven (a classroom's learner): components leave out their controls. */
export function useLabReadOnly(): boolean {
  return useLabContext().readOnly === true;
}

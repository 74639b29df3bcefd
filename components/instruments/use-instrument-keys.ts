'use client';
/**
 * The instrument panel's keys on the page: 1–5 kill or restart Node 1–5,
 * Shift+1–5 pause or resume Client 1–5 (instrument-keys.ts says which), as
 * the tiles' buttons would, and never while the learner types. What a key
 * does is read from the store at the moment it is pressed.
 */
import { useEffect } from 'react';
import { faultPendingKey } from '@/lib/faults/command-words';
import { runActive, runClientStatuses } from '@/components/clients/run-client-statuses';
import { useLabClient, useLabReadOnly, useLabStoreApi } from '@/components/lab/lab-provider';
import { clientToggle, instrumentKey, nodeToggle } from './instrument-keys';

export function useInstrumentKeys(defaultClients: number): void {
  const store = useLabStoreApi();
  const lab = useLabClient();
  const readOnly = useLabReadOnly();
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const key = instrumentKey(e);
      if (!key) return;
      const s = store.getState();
      if (s.connection !== 'ready') return;
      if (key.kind === 'node') {
        const op = nodeToggle(s.nodes[key.n]);
        if (!op || faultPendingKey(op, { node: key.n }) in s.pending) return;
        e.preventDefault();
        void lab.fault(op, { node: key.n });
        return;
      }
      if (!runActive(s.run.phase)) return;
      const op = clientToggle(runClientStatuses(s, defaultClients)[key.n - 1]);
      if (!op || faultPendingKey(op, { client: key.n }) in s.pending) return;
      e.preventDefault();
      void lab.fault(op, { client: key.n });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, lab, readOnly, defaultClients]);
}

/**
 * Where each client of the run on screen stands, read from the lab store:
 * the client list, the phone strip and the instrument keys all ask here, so
 * a key never pauses a client the list shows as finished.
 */
import { lowerBoundT } from '@/components/lab/run-state';
import type { LabState } from '@/components/lab/lab-store';
import { clientStatuses, type ClientStatus } from './client-states';

type Slice = Pick<LabState, 'history'> & { run: Pick<LabState['run'], 'info' | 'shownUntilT' | 'phase'> };

/** The run's clients (or `defaultClients` before a run) and their statuses. */
export function runClientStatuses(s: Slice, defaultClients: number): ClientStatus[] {
  const { info, shownUntilT: until } = s.run;
  const clients = info?.clients ?? defaultClients;
  if (!info) return Array.from({ length: clients }, (): ClientStatus => 'waiting');
  const to = until === null ? s.history.length : lowerBoundT(s.history, until);
  return clientStatuses(s.history.slice(lowerBoundT(s.history, info.startedAt), to), clients);
}

/** Whether the client faults can act now: a run is going. */
export const runActive = (phase: LabState['run']['phase']): boolean => phase === 'running' || phase === 'starting' || phase === 'stopping';

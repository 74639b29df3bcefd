/**
 * Faults on clients (the learner's processes): pause (a GC pause), resume,
 * crash, clock skew. They act on the lab's current run and are recorded like
 * every other nemesis operation.
 */
import { clientLabel } from '@/lib/cluster';
import { LabOperationError } from '@/lib/result';
import { programFaultArgs, programFaultDone, programFaultRefusalWords } from '@/lib/faults/client-words';
import type { FaultInput } from '@/lib/faults/inputs';
import type { Lab } from '../lab/lab';
import { operate } from './nemesis';
import { refusal } from '@/lib/refusal-words';

/** The part of a running program the nemesis may touch. */
export interface RunningClients {
  readonly runId: string;
  readonly clients: number;
  /** Clients whose program is still running. */
  isRunning(client: number): boolean;
  isPaused(client: number): boolean;
  pause(client: number, durationMs?: number): void;
  resume(client: number): void;
  crash(client: number): void;
  skew(client: number, offsetMs: number): void;
}

function target(lab: Lab, run: RunningClients | null, client: number): RunningClients {
  if (!run) throw new LabOperationError('conflict', refusal('client.noProgram'));
  if (client > run.clients) throw new LabOperationError('not-found', refusal('client.notInRun', { client: { client }, n: run.clients }));
  if (!run.isRunning(client)) throw new LabOperationError('conflict', refusal('client.ended', { client: { client } }));
  if (lab.closed) throw new LabOperationError('not-found', refusal('lab.closed'));
  return run;
}

export function pauseClient(lab: Lab, run: RunningClients | null, { client, durationMs }: FaultInput<'client-pause'>): Promise<{ client: number }> {
  const r = target(lab, run, client);
  return operate(lab, 'client-pause', { target: clientLabel(client), client }, programFaultArgs({ action: 'client-pause', client, durationMs }), async () => {
    const refused = programFaultRefusalWords({ action: 'client-pause', client, durationMs }, { ended: false, paused: r.isPaused(client) });
    if (refused) throw new LabOperationError('conflict', refused);
    r.pause(client, durationMs);
    return { value: { client }, detail: programFaultDone({ action: 'client-pause', client, durationMs }) };
  });
}

export function resumeClient(lab: Lab, run: RunningClients | null, { client }: FaultInput<'client-resume'>): Promise<{ client: number }> {
  const r = target(lab, run, client);
  return operate(lab, 'client-resume', { target: clientLabel(client), client }, programFaultArgs({ action: 'client-resume', client }), async () => {
    const refused = programFaultRefusalWords({ action: 'client-resume', client }, { ended: false, paused: r.isPaused(client) });
    if (refused) throw new LabOperationError('conflict', refused);
    r.resume(client);
    return { value: { client }, detail: programFaultDone({ action: 'client-resume', client }) };
  });
}

export function crashClient(lab: Lab, run: RunningClients | null, { client }: FaultInput<'client-crash'>): Promise<{ client: number }> {
  const r = target(lab, run, client);
  return operate(lab, 'client-crash', { target: clientLabel(client), client }, programFaultArgs({ action: 'client-crash', client }), async () => {
    r.crash(client);
    return { value: { client }, detail: programFaultDone({ action: 'client-crash', client }) };
  });
}

export function skewClient(lab: Lab, run: RunningClients | null, { client, offsetMs }: FaultInput<'client-skew'>): Promise<{ client: number }> {
  const r = target(lab, run, client);
  return operate(lab, 'client-skew', { target: clientLabel(client), client }, programFaultArgs({ action: 'client-skew', client, offsetMs }), async () => {
    r.skew(client, offsetMs);
    return { value: { client }, detail: programFaultDone({ action: 'client-skew', client, offsetMs }) };
  });
}

/**
 * What a fault on a learner's client did, in words, wherever it was carried
 * out: by the lab server (a button, a timed scenario step) or inside the
 * sandbox itself (a step waiting for the client's own event, see
 * server/sandbox/worker/armed-faults.ts). One text for both, so the history
 * reads the same.
 */
import type { FaultInput } from './inputs';
import { refusal } from '../refusal-words';
import { historySaid, ms } from '../history-said';
import type { Said } from '../words';

export type ProgramFaultOp = 'client-pause' | 'client-resume' | 'client-crash' | 'client-skew';
export const PROGRAM_FAULT_OPS: readonly ProgramFaultOp[] = ['client-pause', 'client-resume', 'client-crash', 'client-skew'];

/** A fault on the program with its input: what the sandbox needs to carry one out itself. */
export type ProgramFault = { [K in ProgramFaultOp]: FaultInput<K> & { action: K } }[ProgramFaultOp];

export function programFaultDone(fault: ProgramFault): Said {
  const client = { client: fault.client };
  switch (fault.action) {
    case 'client-pause':
      return fault.durationMs ? historySaid('program.pauseFor', { client, durationMs: ms(fault.durationMs) }) : historySaid('program.pauseUntilResumed', { client });
    case 'client-resume':
      return historySaid('program.resume', { client });
    case 'client-crash':
      return historySaid('program.crash', { client });
    case 'client-skew':
      return historySaid('program.skew', { client, offset: `${fault.offsetMs >= 0 ? '+' : ''}${fault.offsetMs}` });
  }
}

/** Why a fault cannot act on a client in this state, in the same words wherever it is refused; null: it can. */
export function programFaultRefusal(fault: ProgramFault, client: { ended: boolean; paused: boolean }): string | null {
  return programFaultRefusalWords(fault, client)?.message ?? null;
}

/** The same refusal with its words, for a page that writes it in its own language. */
export function programFaultRefusalWords(fault: ProgramFault, client: { ended: boolean; paused: boolean } | null): Said | null {
  const who = { client: fault.client };
  if (client === null) return refusal('client.notInThisRun', { client: who });
  if (client.ended) return refusal('client.ended', { client: who });
  if (fault.action === 'client-pause' && client.paused) return refusal('client.alreadyPaused', { client: who });
  if (fault.action === 'client-resume' && !client.paused) return refusal('client.notPaused', { client: who });
  return null;
}

/** The history's arguments of such a fault (as the server's nemesis records them). */
export function programFaultArgs(fault: ProgramFault): Record<string, number | null> {
  switch (fault.action) {
    case 'client-pause':
      return { durationMs: fault.durationMs ?? null };
    case 'client-skew':
      return { offsetMs: fault.offsetMs };
    case 'client-resume':
    case 'client-crash':
      return {};
  }
}

/**
 * One place where a limit says no: it counts the refusal (metrics), logs it
 * with who it concerns (never their code), and gives back the error the
 * learner reads. Callers `throw refuse(...)` or, where nothing is thrown
 * (a run ended by a budget), call it for the record.
 */
import { LabOperationError, type ErrorCode, type ErrorText } from '@/lib/result';
import { log } from './log';
import { refusalsTotal } from './metrics';
import { RepeatGate } from './repeat-gate';

export type RefusalReason =
  | 'lab-full' // the server's lab cap
  | 'labs-per-browser' // one browser asked for more labs than it may hold
  | 'sockets-per-browser' // one browser opened too many sockets
  | 'identity-required' // a socket without an identity bought with work (none, forged, or unknown to this server)
  | 'identity-work' // a solution to an identity challenge that does not hold (forged, expired, reused, too little work)
  | 'lab-yielded' // a lab with no tab, or idle, closed for a newcomer waiting at a full server
  | 'lab-wait' // a newcomer waited for a lab at a full server and none came free
  | 'rate-limited' // a socket's or a lab's command bucket is empty
  | 'socket-flood' // a socket kept hammering after being limited: disconnected
  | 'origin' // a socket from a foreign origin
  | 'limits-clamped' // a learner asked for more than the server's maximum (clamped, not refused)
  | 'run-budget' // the server-wide memory budget for runs is spent
  | 'run-queue-full' // too many runs waiting
  | 'run-yielded' // a run that had its slice stopped for another browser's run waiting at a full server
  | 'history-budget' // a run produced more history than its share
  | 'worker-memory' // a sandbox worker ran out of heap
  | 'node-busy-script' // a node ran a script past the busy threshold (killed)
  | 'node-memory' // a node grew past its memory budget (restarted)
  | 'link-sockets' // a lab's connections past its share of the link process's descriptors (reset as they arrive)
  | 'descriptor-reserve' // only the web server's reserve of descriptors is left: no new lab
  | 'lab-not-yours' // a socket asked to join another browser's lab by its id (given a lab of its own instead)
  | 'lab-take-busy' // "Use the lab here" while each of the browser's labs has a run or a check going
  | 'shared-run-bounds' // a shared run past its size, its browser's share or the server's total (server/store/shared-runs.ts)
  | 'shared-run-not-yours' // a browser asked to delete a run another browser shared
  | 'no-store' // sharing on a server started without a store (LOCKLAB_STORE=0)
  | 'invalid-input';

export interface RefusalContext {
  labId?: string;
  /** The browser's anonymous identity (cookie), never an IP address. */
  browser?: string;
  socket?: string;
  /** Small facts about the hit: sizes, counts, limits. Never code or secrets. */
  detail?: Record<string, string | number | boolean>;
}

const CODES: Partial<Record<RefusalReason, ErrorCode>> = {
  'lab-full': 'lab-full',
  'labs-per-browser': 'lab-full',
  'sockets-per-browser': 'forbidden',
  'identity-required': 'forbidden',
  'identity-work': 'forbidden',
  'lab-wait': 'lab-full',
  'rate-limited': 'rate-limited',
  'socket-flood': 'rate-limited',
  origin: 'forbidden',
  'run-budget': 'lab-full',
  'run-queue-full': 'lab-full',
  'descriptor-reserve': 'lab-full',
  'shared-run-bounds': 'lab-full',
  'shared-run-not-yours': 'forbidden',
  'no-store': 'not-found',
  'invalid-input': 'invalid-input',
};

/** One line per reason and browser (or socket, or lab) per window; the rest are counted (repeat-gate.ts). */
const lines = new RepeatGate(({ kind, repeats, windowMs }) => {
  log.warn({ event: 'refusal-repeats', kind, repeats, windowMs }, `the same refusal ${repeats} more time(s) within ${windowMs / 1000} s`);
});

/** Records a limit hit (metric always, a log line unless it repeats one just written) and returns the error to throw or to show. */
export function refuse(reason: RefusalReason, context: RefusalContext, text: ErrorText): LabOperationError {
  refusalsTotal.inc({ reason });
  const who = context.browser ?? context.socket ?? context.labId ?? '-';
  if (lines.admit(`${reason} ${who}`)) log.warn({ event: 'refusal', reason, ...context }, typeof text === 'string' ? text : text.message);
  return new LabOperationError(CODES[reason] ?? 'conflict', text);
}

/**
 * The browser's one socket client: a socket.io connection to the lab server
 * (lib/protocol.ts), its life (connect, lost, refused), acknowledged
 * requests that resolve to the server's Result or say why there was none,
 * and every push about a lab turned into one `LabPush` value. Two layers
 * sit on it and speak no socket.io themselves: the tab's own lab
 * (LabSocketClient: join, re-attach, commands) and a classroom
 * (ClassroomClient: join as instructor or learner, roster, demos, the
 * class's lab). Components never see any of it: they read stores.
 */
import { io, type Socket } from 'socket.io-client';
import type { LabSnapshot } from '@/lib/cluster';
import type { CommandRequest, CommandValue } from '@/lib/commands';
import type { GradeProgress } from '@/lib/grading';
import type { ExploreProgress } from '@/lib/explore';
import type { ExperimentProgress } from '@/lib/experiment/design';
import type { ClientEventName, ClientToServerEvents, HandshakeRefusal, HistoryBatch, LinksDiff, NodesDiff, ServerToClientEvents } from '@/lib/protocol';
import { ensureBrowserIdentity } from './browser-identity';
import type { ErrorCode, Result } from '@/lib/result';
import type { Diagnostic, RunEnded, RunInfo, RunVerdict } from '@/lib/run';
import type { CommandErrorCode, LabStore } from './lab-store';
import type { Words } from '@/lib/words';

export type LabSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Everything the server pushes about one lab, as one value (the layers route it by labId). */
export type LabPush =
  | { kind: 'snapshot'; snapshot: LabSnapshot }
  | { kind: 'nodes'; diff: NodesDiff }
  | { kind: 'links'; diff: LinksDiff }
  | { kind: 'history'; batch: HistoryBatch }
  | { kind: 'run-waiting'; ahead: number }
  | { kind: 'run-started'; info: RunInfo }
  | { kind: 'verdict'; verdict: RunVerdict }
  | { kind: 'diagnostic'; diagnostic: Diagnostic & { runId: string } }
  | { kind: 'run-ended'; ended: RunEnded; info?: RunInfo }
  | { kind: 'exercise-progress'; progress: GradeProgress }
  | { kind: 'explore-progress'; progress: ExploreProgress }
  | { kind: 'experiment-progress'; progress: ExperimentProgress }
  | { kind: 'closed'; reason: string; words?: Words | undefined }
  | { kind: 'moved'; to: string | null };

/** The words socket.io carries in a refused handshake's `data` (server/realtime/socket-server.ts), if any. */
function refusalWords(error: Error): Words | undefined {
  const words: unknown = handshakeRefusal(error)?.words;
  return words !== null && typeof words === 'object' && typeof (words as Words).key === 'string' ? (words as Words) : undefined;
}

export interface ConnectionHandlers {
  /** Connected, the first time or again: the layer (re-)joins. */
  connected(): void;
  /** The connection dropped without being asked to; socket.io is reconnecting. */
  lost(): void;
  /** The server did not take the connection; `retrying` unless it turned it down for good (e.g. a foreign Origin). */
  /** `words`: the server's refusal as data (a handshake it turned down), for the page's language. */
  refused(message: string, retrying: boolean, words?: Words): void;
  push(labId: string, push: LabPush): void;
  /** An error not tied to a request. */
  error(error: { code: string; message: string; words?: Words }): void;
}

/** A request's end: the server's Result, or why none came. */
export type Answer<T> = { answered: true; result: Result<T> } | { answered: false; why: 'offline' | 'timeout' };

/**
 * socket.io's typings cannot follow an event name chosen by a type parameter
 * through `timeout()`, so requests go out through this one loose signature;
 * `request` keeps the precise types of lib/protocol.ts at its boundary.
 */
interface LooseAckEmitter {
  emit(event: string, input: unknown, ack: (err: Error | null, result: unknown) => void): unknown;
}

/** A refused handshake's data (server/realtime/socket-server.ts), if it is one. */
function handshakeRefusal(error: Error): HandshakeRefusal | undefined {
  const data = (error as Error & { data?: unknown }).data;
  return data !== null && typeof data === 'object' ? (data as HandshakeRefusal) : undefined;
}

/** Identities bought in a row for one socket before the page gives up (cookies blocked, a server that keeps forgetting). */
const IDENTITY_ATTEMPTS = 2;

export class LabConnection {
  private current: LabSocket | null = null;
  private readonly identify: () => Promise<void>;

  /**
   * `identify` makes sure the browser has an identity before the socket connects (components/lab/browser-identity.ts);
   * a socket opened some other way (tests with their own `openSocket`) brings its own and needs none.
   */
  constructor(
    private readonly openSocket: () => LabSocket = defaultOpenSocket,
    identify?: () => Promise<void>,
  ) {
    this.identify = identify ?? (openSocket === defaultOpenSocket ? () => ensureBrowserIdentity() : async () => undefined);
  }

  get connected(): boolean {
    return this.current?.connected === true;
  }

  /** The socket, for a layer's own pushes (`classroom:*`); null before `start`. */
  get socket(): LabSocket | null {
    return this.current;
  }

  /** Connects and keeps connecting; calling it twice does nothing. */
  start(handlers: ConnectionHandlers): LabSocket {
    if (this.current) return this.current;
    const socket = this.openSocket();
    this.current = socket;
    let identityAttempts = 0;
    /** Buys the browser's identity if it has none, then connects; the server's words if that fails. */
    const connect = () =>
      void this.identify().then(
        () => {
          if (this.current === socket) socket.connect();
        },
        (error: Error) => handlers.refused(error.message, false),
      );
    socket.on('connect', () => {
      identityAttempts = 0;
      handlers.connected();
    });
    socket.on('disconnect', (reason) => {
      if (reason === 'io client disconnect') return;
      handlers.lost();
      // A disconnect decided by the server is not retried by socket.io on its own.
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.on('connect_error', (error) => {
      // No identity (a first visit, a cookie the server no longer knows): buy one and connect again, as the page is told.
      if (handshakeRefusal(error)?.identityRequired && identityAttempts < IDENTITY_ATTEMPTS) {
        identityAttempts++;
        handlers.refused(error.message, true, refusalWords(error));
        return connect();
      }
      // `active` stays true on a socket made not to reconnect (a one-shot request), which will not try again.
      handlers.refused(error.message, socket.active && socket.io.reconnection(), refusalWords(error));
    });
    const push = handlers.push;
    socket.on('lab:snapshot', (snapshot) => push(snapshot.labId, { kind: 'snapshot', snapshot }));
    socket.on('nodes:update', (diff) => push(diff.labId, { kind: 'nodes', diff }));
    socket.on('links:update', (diff) => push(diff.labId, { kind: 'links', diff }));
    socket.on('history:append', (batch) => push(batch.labId, { kind: 'history', batch }));
    socket.on('run:waiting', ({ labId, ahead }) => push(labId, { kind: 'run-waiting', ahead }));
    socket.on('run:started', ({ labId, ...info }) => push(labId, { kind: 'run-started', info }));
    socket.on('run:verdict', ({ labId, ...verdict }) => push(labId, { kind: 'verdict', verdict }));
    socket.on('run:diagnostic', ({ labId, ...diagnostic }) => push(labId, { kind: 'diagnostic', diagnostic }));
    socket.on('run:ended', ({ labId, info, ...ended }) => push(labId, { kind: 'run-ended', ended, ...(info ? { info } : {}) }));
    socket.on('exercise:progress', ({ labId, ...progress }) => push(labId, { kind: 'exercise-progress', progress }));
    socket.on('explore:progress', ({ labId, ...progress }) => push(labId, { kind: 'explore-progress', progress }));
    socket.on('experiment:progress', ({ labId, ...progress }) => push(labId, { kind: 'experiment-progress', progress }));
    socket.on('lab:closed', ({ labId, reason, words }) => push(labId, { kind: 'closed', reason, words }));
    socket.on('lab:moved', ({ labId, to }) => push(labId, { kind: 'moved', to }));
    socket.on('lab:error', (error) => handlers.error(error));
    connect();
    return socket;
  }

  stop(): void {
    this.current?.removeAllListeners();
    this.current?.disconnect();
    this.current = null;
  }

  /** Sends command `event` and waits up to `timeoutMs` for its acknowledgement. */
  request<E extends ClientEventName>(event: E, input: CommandRequest<E>, timeoutMs: number): Promise<Answer<CommandValue<E>>> {
    return this.requestLoose(event, input, timeoutMs) as Promise<Answer<CommandValue<E>>>;
  }

  /** The same, for a command whose name is only known at run time (a classroom's relayed lab command). */
  requestLoose(event: ClientEventName, input: unknown, timeoutMs: number): Promise<Answer<unknown>> {
    const socket = this.current;
    if (!socket?.connected) return Promise.resolve({ answered: false, why: 'offline' });
    return new Promise((resolve) => {
      (socket.timeout(timeoutMs) as unknown as LooseAckEmitter).emit(event, input, (err, result) =>
        resolve(err ? { answered: false, why: 'timeout' } : { answered: true, result: result as Result<unknown> }),
      );
    });
  }
}

/** A lab push into the lab store (`closed` and `moved` pushes are the layer's to handle: they mean different things to each). */
export function applyLabPush(store: LabStore, push: Exclude<LabPush, { kind: 'closed' | 'moved' }>, now: number): void {
  const actions = store.getState().actions;
  switch (push.kind) {
    case 'snapshot':
      return actions.receiveSnapshot(push.snapshot, now);
    case 'nodes':
      return actions.receiveNodes(push.diff, now);
    case 'links':
      return actions.receiveLinks(push.diff);
    case 'history':
      return actions.receiveHistory(push.batch);
    case 'run-waiting':
      return actions.runWaiting(push.ahead);
    case 'run-started':
      return actions.runStarted(push.info);
    case 'verdict':
      return actions.receiveVerdict(push.verdict);
    case 'diagnostic':
      return actions.receiveDiagnostic(push.diagnostic);
    case 'run-ended':
      return actions.runEnded(push.ended, push.info);
    case 'exercise-progress':
      return actions.exerciseProgress(push.progress);
    case 'explore-progress':
      return actions.exploreProgress(push.progress);
    case 'experiment-progress':
      return actions.experimentProgress(push.progress);
  }
}

const SERVER_ERROR_CODES: readonly ErrorCode[] = [
  'invalid-input',
  'not-found',
  'conflict',
  'lab-full',
  'no-lab',
  'forbidden',
  'internal',
];

/** A server error code as the store knows it (an unknown one reads as internal). */
export function toErrorCode(code: string): CommandErrorCode {
  const known = SERVER_ERROR_CODES.find((c) => c === code);
  return known ?? 'internal';
}

function defaultOpenSocket(): LabSocket {
  // Same origin as the page: the custom server serves Next and socket.io on one port.
  return io({ autoConnect: false });
}

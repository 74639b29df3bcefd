/**
 * The one module of the browser that speaks Lock Lab's socket protocol
 * (lib/protocol.ts). It joins the tab's lab, folds every server push into
 * the store, re-joins after a reconnect, and turns commands into
 * acknowledged emits that resolve to a Result. Components never touch the
 * socket: they read the store and call these commands.
 */
import { io, type Socket } from 'socket.io-client';
import { sameTopology, type LabSnapshot, type Topology } from '@/lib/cluster';
import type { GradeResult } from '@/lib/grading';
import type { ClientEventName, ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { ErrorCode, LabError, Result } from '@/lib/result';
import type { RunEnded, RunInfo, RunStartInput } from '@/lib/run';
import { FAULTS, labelFault, type FaultOp, type FaultReply } from '@/lib/faults/catalogue';
import type { FaultRequest } from '@/lib/faults/inputs';
import type { LabJoinInput, LabResetInput, TopologyInput } from '@/lib/schemas';
import type { RunRequest } from './run-state';
import type { CommandErrorCode, LabStore } from './lab-store';

export type LabSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A command's outcome: the server's Result, or an error the browser saw itself (no answer, no connection). */
export type CommandResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: Omit<LabError, 'code'> & { code: CommandErrorCode } };

/** The part of Web Storage the client needs; sessionStorage in a browser, a Map in tests. */
export type LabIdStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface LabSocketClientOptions {
  store: LabStore;
  /** Where the tab's lab id is kept so a reload re-attaches to the same lab. */
  storage: LabIdStorage | null;
  /** Opens the socket, not yet connected. Defaults to socket.io on this page's origin. */
  openSocket?: () => LabSocket;
  /** Local monotonic clock; defaults to performance.now(). */
  now?: () => number;
  /** How long a command may wait for its acknowledgement. */
  ackTimeoutMs?: number;
  /** How long joining may take: the server may be starting five redis-server processes. */
  joinTimeoutMs?: number;
  /** How long "Check my solution" may take: every graded run of the exercise, one after another. */
  gradeTimeoutMs?: number;
  /**
   * The lab this view needs (a lesson's topology). A new lab is created with
   * it; a re-attached lab of another shape is reset to it.
   */
  want?: { topology?: TopologyInput; clients?: number };
  /**
   * Which page of the tab this view is (a lesson's slug, "playground"). A tab
   * keeps one lab across pages; arriving on another page than the one the
   * lab last served asks the server to rebuild it clean, so nothing of the
   * previous page shows. A reload of the same page re-attaches as it was.
   */
  page?: string;
  /**
   * Sends commands somewhere else than this client's own socket (a
   * classroom routes them through `classroom:command`). With a transport,
   * `start()` is not needed: the transport's owner feeds the store.
   */
  transport?: LabCommandTransport;
}

/** Where a client's commands go when they do not go to its own socket (see `transport`). */
export interface LabCommandTransport {
  connected(): boolean;
  /** Emits `event` with `input`; `ack` gets an error on timeout, else the Result. */
  emit(event: ClientEventName, input: unknown, timeoutMs: number, ack: (err: Error | null, result: unknown) => void): void;
}

export const LAB_ID_STORAGE_KEY = 'lock-lab:lab-id';
/** The page the tab's lab last served (see `page`). */
export const LAB_PAGE_STORAGE_KEY = 'lock-lab:lab-page';

type CommandInput<E extends ClientEventName> = Parameters<ClientToServerEvents[E]>[0];
type CommandValue<E extends ClientEventName> =
  Parameters<ClientToServerEvents[E]>[1] extends (result: Result<infer T>) => void ? T : never;

/**
 * socket.io's typings cannot follow an event name chosen by a type parameter
 * through `timeout()`, so `send` emits through this one loose signature; the
 * public command methods keep the precise types of lib/protocol.ts.
 */
interface LooseAckEmitter {
  emit(event: string, input: unknown, ack: (err: Error | null, result: unknown) => void): unknown;
}

/** Fault inputs are whole milliseconds and numbers; a field left undefined is left out. */
function wholeNumbers<T extends object>(input: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined) out[key] = typeof value === 'number' ? Math.round(value) : value;
  return out as T;
}

export class LabSocketClient {
  private socket: LabSocket | null = null;
  /** Counts joins so a late answer to an abandoned join is ignored. */
  private joinAttempt = 0;
  private readonly now: () => number;
  private readonly ackTimeoutMs: number;
  private readonly joinTimeoutMs: number;
  private readonly gradeTimeoutMs: number;

  constructor(private readonly options: LabSocketClientOptions) {
    this.now = options.now ?? (() => performance.now());
    this.ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
    this.joinTimeoutMs = options.joinTimeoutMs ?? 30_000;
    this.gradeTimeoutMs = options.gradeTimeoutMs ?? 300_000;
  }

  private get actions() {
    return this.options.store.getState().actions;
  }

  /** Connects and joins the tab's lab. Calling it twice does nothing. */
  start(): void {
    if (this.socket) return;
    const socket = (this.options.openSocket ?? defaultOpenSocket)();
    this.socket = socket;

    socket.on('connect', () => this.join());
    socket.on('disconnect', (reason) => {
      if (reason === 'io client disconnect') return;
      this.actions.setConnection('reconnecting', 'Lost the connection to the lab server; reconnecting…');
      // A disconnect decided by the server is not retried by socket.io on its own.
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.on('connect_error', (error) => {
      if (socket.active) {
        const first = this.options.store.getState().connection === 'connecting';
        this.actions.setConnection(first ? 'connecting' : 'reconnecting', 'Cannot reach the lab server; retrying…');
      } else {
        // Not retried: the server turned the connection down (e.g. a foreign Origin).
        this.actions.setConnection('failed', `The lab server refused the connection: ${error.message}`);
      }
    });

    socket.on('lab:snapshot', (snapshot) => {
      this.options.storage?.setItem(LAB_ID_STORAGE_KEY, snapshot.labId);
      this.actions.receiveSnapshot(snapshot, this.now());
    });
    socket.on('nodes:update', (diff) => this.actions.receiveNodes(diff, this.now()));
    socket.on('links:update', (diff) => this.actions.receiveLinks(diff));
    socket.on('history:append', (batch) => this.actions.receiveHistory(batch));
    socket.on('lab:closed', ({ labId, reason }) => {
      if (labId !== this.options.store.getState().labId) return;
      this.options.storage?.removeItem(LAB_ID_STORAGE_KEY);
      this.actions.setConnection('closed', reason);
    });
    const mine = (labId: string) => labId === this.options.store.getState().labId;
    socket.on('run:waiting', ({ labId, ahead }) => {
      if (mine(labId)) this.actions.runWaiting(ahead);
    });
    socket.on('run:started', ({ labId, ...info }) => {
      if (mine(labId)) this.actions.runStarted(info);
    });
    socket.on('run:verdict', ({ labId, ...verdict }) => {
      if (mine(labId)) this.actions.receiveVerdict(verdict);
    });
    socket.on('run:diagnostic', ({ labId, ...diagnostic }) => {
      if (mine(labId)) this.actions.receiveDiagnostic(diagnostic);
    });
    socket.on('run:ended', ({ labId, info, ...ended }) => {
      if (mine(labId)) this.actions.runEnded(ended, info);
    });
    socket.on('exercise:progress', ({ labId, ...progress }) => {
      if (mine(labId)) this.actions.exerciseProgress(progress);
    });
    socket.on('lab:error', ({ code, message }) => {
      this.actions.reportError({ command: 'Lab', code: toErrorCode(code), message });
    });

    socket.connect();
  }

  /** Disconnects; the lab lives on on the server until its idle timeout, so a reload can re-attach. */
  stop(): void {
    this.joinAttempt++;
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
  }

  /**
   * Joins the lab this tab had, or a new one. Called on every (re)connect,
   * and by the "try again" / "new lab" buttons.
   */
  join({ fresh = false }: { fresh?: boolean } = {}): void {
    const socket = this.socket;
    if (!socket?.connected) return;
    const storage = this.options.storage;
    if (fresh) storage?.removeItem(LAB_ID_STORAGE_KEY);
    const labId = storage?.getItem(LAB_ID_STORAGE_KEY) ?? undefined;
    const page = this.options.page;
    const newPage = labId !== undefined && page !== undefined && storage?.getItem(LAB_PAGE_STORAGE_KEY) !== page;
    const attempt = ++this.joinAttempt;
    this.actions.setConnection('joining', labId ? 'Re-attaching to your lab…' : 'Starting your lab…');

    const input: LabJoinInput = labId ? { labId } : {};
    if (newPage) input.clean = true;
    const want = this.options.want;
    if (want?.topology) input.topology = want.topology;
    if (want?.clients !== undefined) input.clients = want.clients;
    socket.timeout(this.joinTimeoutMs).emit('lab:join', input, (err, result) => {
      if (attempt !== this.joinAttempt) return;
      if (err) {
        this.actions.setConnection('failed', 'The lab server did not answer in time while starting your lab.');
        return;
      }
      if (result.ok) {
        storage?.setItem(LAB_ID_STORAGE_KEY, result.value.labId);
        if (page !== undefined) storage?.setItem(LAB_PAGE_STORAGE_KEY, page);
        this.actions.receiveSnapshot(result.value, this.now());
        if (want?.topology && !sameShape(result.value.topology, want.topology)) {
          // This tab's lab was made for another lesson: swap it for one of the shape this view needs.
          this.actions.setConnection('joining', 'Setting up the lab for this lesson…');
          void this.resetLab({ topology: want.topology, ...(want.clients !== undefined ? { clients: want.clients } : {}) }).then((reset) => {
            if (attempt === this.joinAttempt) this.actions.setConnection(reset.ok ? 'ready' : 'failed', reset.ok ? null : reset.error.message);
          });
          return;
        }
        this.actions.setConnection('ready');
        return;
      }
      const { code, message } = result.error;
      if (code === 'lab-full') {
        this.actions.setConnection('full', message);
      } else if (labId !== undefined && code !== 'internal') {
        // The lab this tab remembers is gone (idle timeout, server restart): start a new one.
        this.join({ fresh: true });
      } else {
        this.actions.setConnection('failed', message);
      }
    });
  }

  /**
   * Any fault of the catalogue (lib/faults), pending under its button's name
   * ("Kill Node 3", the catalogue's label) until the server answers.
   */
  fault<K extends FaultOp>(op: K, input: FaultRequest<K>): Promise<CommandResult<FaultReply<K>>> {
    // The event and its ack are paired in lib/protocol.ts (FaultEvents); `send` cannot follow a generic event name.
    return this.send(FAULTS[op].event as ClientEventName, wholeNumbers(input) as never, labelFault(op, input)) as Promise<CommandResult<FaultReply<K>>>;
  }

  /**
   * Runs the learner's program (stopping a run in progress on the server).
   * The store shows `starting` at once, then follows the run's pushes.
   */
  async startRun(request: RunRequest & { clients?: number; limits?: RunStartInput['limits'] }): Promise<CommandResult<RunInfo>> {
    this.actions.runRequested(request);
    const input: RunStartInput = { code: request.code };
    if (request.clients !== undefined) input.clients = request.clients;
    if (request.scenario) input.scenario = request.scenario;
    if (request.checker) input.checker = request.checker;
    if (request.limits) input.limits = request.limits;
    // Starting may wait for a sandbox worker to warm up.
    const result = await this.send('run:start', input, 'Run', this.joinTimeoutMs);
    if (result.ok) this.actions.runStarted(result.value);
    else this.actions.runFailed(result.error.message);
    return result;
  }

  async stopRun(): Promise<CommandResult<RunEnded | null>> {
    this.actions.runStopping();
    const result = await this.send('run:stop', {}, 'Stop');
    if (result.ok && result.value) this.actions.runEnded(result.value);
    return result;
  }

  /**
   * "Check my solution": the server runs `code` under the exercise's
   * scenarios and seeds, one graded run after another in this tab's lab (so
   * their run pushes show each run, and the failing one last). The store
   * shows the grader's progress and then its answer.
   */
  async checkExercise(slug: string, code: string): Promise<CommandResult<GradeResult>> {
    this.actions.exerciseRequested(slug);
    // Each graded run restores the lab and runs for seconds: allow minutes, not the usual ack time.
    const result = await this.send('exercise:check', { slug, code }, 'Check my solution', this.gradeTimeoutMs);
    if (result.ok) this.actions.exerciseResult(result.value);
    else this.actions.exerciseFailed(result.error.message);
    return result;
  }

  async resetLab(input: LabResetInput = {}): Promise<CommandResult<LabSnapshot>> {
    const result = await this.send('lab:reset', input, 'Reset lab', this.joinTimeoutMs);
    if (result.ok) this.actions.receiveSnapshot(result.value, this.now());
    return result;
  }

  /**
   * Emits a command, marks it pending under its button's name, and resolves
   * with its Result; a failure is also put in the store so the page shows it.
   */
  private send<E extends ClientEventName>(
    event: E,
    input: CommandInput<E>,
    label: string,
    timeoutMs = this.ackTimeoutMs,
  ): Promise<CommandResult<CommandValue<E>>> {
    const emit = this.commandEmitter(timeoutMs);
    if (!emit) {
      return Promise.resolve(this.failed(label, 'offline', 'Not connected to the lab server.'));
    }
    this.actions.setPending(label, true);
    return new Promise<CommandResult<CommandValue<E>>>((resolve) => {
      emit(event, input, (err, answer) => {
        this.actions.setPending(label, false);
        if (err) {
          resolve(this.failed(label, 'timeout', `No answer from the lab server within ${Math.round(timeoutMs / 1000)} s.`));
          return;
        }
        const result = answer as Result<CommandValue<E>>;
        if (!result.ok) {
          this.actions.reportError({ command: label, code: result.error.code, message: result.error.message });
        }
        resolve(result);
      });
    });
  }

  /** The transport's emit, or this client's socket's; null while not connected. */
  private commandEmitter(timeoutMs: number): LooseAckEmitter['emit'] | null {
    const transport = this.options.transport;
    if (transport) return transport.connected() ? (event, input, ack) => transport.emit(event as ClientEventName, input, timeoutMs, ack) : null;
    const socket = this.socket;
    if (!socket?.connected) return null;
    const emitter = socket.timeout(timeoutMs) as unknown as LooseAckEmitter;
    return (event, input, ack) => emitter.emit(event, input, ack);
  }

  private failed(label: string, code: CommandErrorCode, message: string): CommandResult<never> {
    this.actions.reportError({ command: label, code, message });
    return { ok: false, error: { code, message } };
  }
}

/** Whether a lab's topology is what a view asked for (unset fields take the schema's defaults). */
export function sameShape(actual: Topology, wanted: TopologyInput): boolean {
  const kind = wanted.kind ?? 'masters';
  const nodes = wanted.nodes ?? (kind === 'replicated' ? 2 : 5);
  return sameTopology(actual, { kind, nodes, persistence: wanted.persistence ?? 'none' });
}

function defaultOpenSocket(): LabSocket {
  // Same origin as the page: the custom server serves Next and socket.io on one port.
  return io({ autoConnect: false });
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

function toErrorCode(code: string): CommandErrorCode {
  const known = SERVER_ERROR_CODES.find((c) => c === code);
  return known ?? 'internal';
}

/**
 * The browser side of the classroom protocol (lib/protocol.ts, `classroom:*`),
 * on its own socket.io connection, beside any lab the tab has of its own.
 *
 * It joins the class (as instructor or learner), re-joins as the same person
 * after a reconnect, and feeds two stores: the classroom store (roster, demo,
 * "follow me") and a lab store fed with the same pure reducers as a personal
 * lab, so the same components show the shared lab. Every lab push is
 * filtered by the classroom's labId; the pushes that arrive before the
 * join's acknowledgement wait per labId (LabPushRouter).
 *
 * The lab's controls talk to `lab`, a LabSocketClient whose commands are
 * routed through `classroom:command` (the server refuses them for learners).
 */
import { io } from 'socket.io-client';
import type { ClassroomDemoStarted, ClassroomFollow, ClassroomJoined, ClassroomProgress, DemoRef, DemoSummary } from '@/lib/classroom';
import type { ClientEventName } from '@/lib/protocol';
import type { Result } from '@/lib/result';
import type { RunInfo } from '@/lib/run';
import type { LabStore } from '@/components/lab/lab-store';
import { LabSocketClient, type CommandResult, type LabCommandTransport, type LabSocket } from '@/components/lab/socket-client';
import {
  isClassroomLabCommand,
  LabPushRouter,
  learnerKey,
  saveCredentials,
  INSTRUCTOR_TOKEN_KEY,
  type Credentials,
  type CredentialStorage,
  type LabPush,
} from './classroom-state';
import type { ClassroomStore } from './classroom-store';

export interface ClassroomClientOptions {
  labStore: LabStore;
  classStore: ClassroomStore;
  /** Where the tab keeps who it is in the class (sessionStorage), to re-join after a reload. */
  storage: CredentialStorage | null;
  openSocket?: () => LabSocket;
  now?: () => number;
  ackTimeoutMs?: number;
  /** Joining waits for the lab's owner to send the snapshot and history. */
  joinTimeoutMs?: number;
}

type AckCallback = (err: Error | null, result: unknown) => void;
/** One loose signature for emits whose event is chosen at run time (socket.io's typings cannot follow it through timeout()). */
interface LooseEmitter {
  emit(event: string, input: unknown, ack: AckCallback): unknown;
}

export class ClassroomClient {
  /** The shared lab's commands (Kill Node 3, …), routed through classroom:command. */
  readonly lab: LabSocketClient;
  private socket: LabSocket | null = null;
  private credentials: Credentials | null = null;
  private joinAttempt = 0;
  private readonly router: LabPushRouter;
  private readonly now: () => number;
  private readonly ackTimeoutMs: number;
  private readonly joinTimeoutMs: number;

  constructor(private readonly options: ClassroomClientOptions) {
    this.now = options.now ?? (() => performance.now());
    this.ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
    this.joinTimeoutMs = options.joinTimeoutMs ?? 30_000;
    this.router = new LabPushRouter((push) => this.apply(push));
    const transport: LabCommandTransport = {
      connected: () => this.socket?.connected === true && this.classState.status === 'joined',
      emit: (event, input, timeoutMs, ack) => this.sendLabCommand(event, input, timeoutMs, ack),
    };
    this.lab = new LabSocketClient({ store: options.labStore, storage: null, transport });
  }

  private get labActions() {
    return this.options.labStore.getState().actions;
  }

  private get classActions() {
    return this.options.classStore.getState().actions;
  }

  private get classState() {
    return this.options.classStore.getState();
  }

  /** Connects; joins at once if `credentials` are known (a reload), else waits for `join`. */
  start(credentials: Credentials | null): void {
    if (this.socket) return;
    this.credentials = credentials;
    const socket = (this.options.openSocket ?? (() => io({ autoConnect: false })))();
    this.socket = socket;
    this.classActions.setStatus(credentials ? 'connecting' : 'idle');

    socket.on('connect', () => {
      if (this.credentials) this.join(this.credentials);
    });
    socket.on('disconnect', (reason) => {
      if (reason === 'io client disconnect') return;
      const status = this.classState.status;
      if (status === 'joined' || status === 'joining') this.classActions.setStatus('reconnecting', 'Lost the connection to the class; reconnecting…');
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.on('connect_error', (error) => {
      if (!socket.active) this.classActions.setStatus('failed', `The lab server refused the connection: ${error.message}`);
    });

    socket.on('lab:snapshot', (snapshot) => this.router.push(snapshot.labId, { kind: 'snapshot', snapshot }));
    socket.on('nodes:update', (diff) => this.router.push(diff.labId, { kind: 'nodes', diff }));
    socket.on('links:update', (diff) => this.router.push(diff.labId, { kind: 'links', diff }));
    socket.on('history:append', (batch) => this.router.push(batch.labId, { kind: 'history', batch }));
    socket.on('run:started', ({ labId, ...info }) => this.router.push(labId, { kind: 'run-started', info }));
    socket.on('run:verdict', ({ labId, ...verdict }) => this.router.push(labId, { kind: 'verdict', verdict }));
    socket.on('run:ended', ({ labId, info, ...ended }) => this.router.push(labId, { kind: 'run-ended', ended, ...(info ? { info } : {}) }));
    socket.on('lab:closed', ({ labId, reason }) => {
      if (labId === this.router.current) this.over(`The class's lab was closed: ${reason}`);
    });

    const ours = (code: string) => code === this.classState.info?.code;
    socket.on('classroom:roster', ({ code, learner }) => {
      if (ours(code)) this.classActions.rosterEntry(learner);
    });
    socket.on('classroom:demo', ({ code, ...demo }) => {
      if (!ours(code)) return;
      this.classActions.demo(demo);
      const labId = this.router.current;
      if (labId) this.router.push(labId, { kind: 'run-started', info: demo.run });
    });
    socket.on('classroom:follow', ({ code, ...follow }) => {
      if (ours(code)) this.classActions.follow(follow);
    });
    socket.on('classroom:ended', ({ code, reason }) => {
      if (ours(code)) this.over(reason);
    });

    socket.connect();
  }

  stop(): void {
    this.joinAttempt++;
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
  }

  /** Joins (or re-joins) the class as `credentials` say. */
  join(credentials: Credentials): void {
    this.credentials = credentials;
    const socket = this.socket;
    if (!socket?.connected) {
      this.classActions.setStatus('connecting');
      return;
    }
    const attempt = ++this.joinAttempt;
    this.classActions.setStatus('joining');
    this.router.expectJoin();
    const input =
      credentials.role === 'instructor'
        ? { code: credentials.code, instructorToken: credentials.token }
        : { code: credentials.code, name: credentials.name, ...(credentials.learnerId ? { learnerId: credentials.learnerId } : {}) };
    socket.timeout(this.joinTimeoutMs).emit('classroom:join', input, (err, result) => {
      if (attempt !== this.joinAttempt) return;
      if (err) {
        this.classActions.setStatus('failed', 'The lab server did not answer in time.', 'timeout');
        return;
      }
      if (!result.ok) {
        this.refused(credentials, result.error.code, result.error.message);
        return;
      }
      this.entered(credentials, result.value);
    });
  }

  private entered(credentials: Credentials, joined: ClassroomJoined): void {
    const saved: Credentials = credentials.role === 'learner' ? { ...credentials, learnerId: joined.learnerId } : credentials;
    this.credentials = saved;
    saveCredentials(this.options.storage, saved);
    // The ack's snapshot first (it names the lab), then what waited for the ack: the history, and the
    // server's catch-up of the class's run (going on, or ended with its verdict).
    this.labActions.receiveSnapshot(joined.lab, this.now());
    this.router.joined(joined.labId);
    this.labActions.setConnection('ready');
    this.classActions.joined(joined);
    if (joined.role === 'instructor' && this.classState.demos === null) void this.loadDemos();
  }

  private refused(credentials: Credentials, code: string, message: string): void {
    this.router.reset();
    if (credentials.role === 'instructor' && code === 'forbidden') {
      // A wrong or stale token: forget it and ask again.
      this.options.storage?.removeItem(INSTRUCTOR_TOKEN_KEY);
      this.credentials = null;
      this.classActions.setStatus('idle', message, code);
      return;
    }
    if (credentials.role === 'learner' && code === 'invalid-input') {
      this.credentials = null;
      this.classActions.setStatus('idle', message, code);
      return;
    }
    this.classActions.setStatus(code === 'not-found' ? 'ended' : 'failed', message, code);
  }

  private over(reason: string): void {
    const credentials = this.credentials;
    if (credentials?.role === 'learner') this.options.storage?.removeItem(learnerKey(credentials.code));
    this.credentials = null;
    this.router.reset();
    this.classActions.ended(reason);
    this.labActions.setConnection('closed', reason);
  }

  private apply(push: LabPush): void {
    const actions = this.labActions;
    switch (push.kind) {
      case 'snapshot':
        return actions.receiveSnapshot(push.snapshot, this.now());
      case 'nodes':
        return actions.receiveNodes(push.diff, this.now());
      case 'links':
        return actions.receiveLinks(push.diff);
      case 'history':
        return actions.receiveHistory(push.batch);
      case 'run-started':
        return this.showRun(push.info);
      case 'verdict':
        return actions.receiveVerdict(push.verdict);
      case 'run-ended':
        return actions.runEnded(push.ended, push.info);
    }
  }

  /** A new run on the shared lab (a demo): the last run's verdict and timeline give way to it. */
  private showRun(info: RunInfo): void {
    if (this.options.labStore.getState().run.info?.runId === info.runId) return;
    this.labActions.runRequested({ code: '', scenario: null, checker: null });
    this.labActions.runStarted(info);
  }

  private sendLabCommand(event: ClientEventName, input: unknown, timeoutMs: number, ack: AckCallback): void {
    if (!isClassroomLabCommand(event)) {
      ack(null, { ok: false, error: { code: 'forbidden', message: `${event} is not available on the class's lab` } });
      return;
    }
    const socket = this.socket;
    if (!socket) {
      ack(null, { ok: false, error: { code: 'offline', message: 'Not connected to the lab server.' } });
      return;
    }
    (socket.timeout(timeoutMs) as unknown as LooseEmitter).emit('classroom:command', { command: event, input }, ack);
  }

  /** Runs a failure demo on the class's lab, with `seed` (or the demo's own). */
  async runDemo(demo: Pick<DemoSummary, 'ref' | 'title'>, seed?: number): Promise<CommandResult<ClassroomDemoStarted>> {
    const input: { demo: DemoRef; seed?: number } = { demo: demo.ref };
    if (seed !== undefined) input.seed = seed;
    const result = await this.request<ClassroomDemoStarted>('classroom:demo', input, `Run demo: ${demo.title}`, this.joinTimeoutMs);
    if (result.ok) {
      this.classActions.demo(result.value);
      this.showRun(result.value.run);
    }
    return result;
  }

  follow(lesson: string, scenario: string | null): Promise<CommandResult<ClassroomFollow>> {
    return this.request<ClassroomFollow>('classroom:follow', { lesson, scenario }, 'Follow me');
  }

  end(): Promise<CommandResult<null>> {
    return this.request<null>('classroom:end', {}, 'End class');
  }

  /** A learner's progress report (quietly: the roster is the instructor's, a failed report is retried on the next change). */
  reportProgress(progress: ClassroomProgress): Promise<CommandResult<null>> {
    return this.request<null>('classroom:progress', progress, 'Report progress', this.ackTimeoutMs, { quiet: true });
  }

  async loadDemos(): Promise<CommandResult<DemoSummary[]>> {
    const result = await this.request<DemoSummary[]>('classroom:demos', {}, 'List demos');
    if (result.ok) this.classActions.demos(result.value);
    return result;
  }

  private request<T>(
    event: 'classroom:demo' | 'classroom:follow' | 'classroom:end' | 'classroom:progress' | 'classroom:demos',
    input: unknown,
    label: string,
    timeoutMs = this.ackTimeoutMs,
    { quiet = false }: { quiet?: boolean } = {},
  ): Promise<CommandResult<T>> {
    const socket = this.socket;
    const fail = (code: 'offline' | 'timeout', message: string): CommandResult<T> => {
      if (!quiet) this.labActions.reportError({ command: label, code, message });
      return { ok: false, error: { code, message } };
    };
    if (!socket?.connected || this.classState.status !== 'joined') return Promise.resolve(fail('offline', 'Not in the class right now.'));
    if (!quiet) this.labActions.setPending(label, true);
    return new Promise((resolve) => {
      (socket.timeout(timeoutMs) as unknown as LooseEmitter).emit(event, input, (err, answer) => {
        if (!quiet) this.labActions.setPending(label, false);
        if (err) return resolve(fail('timeout', `No answer from the lab server within ${Math.round(timeoutMs / 1000)} s.`));
        const result = answer as Result<T>;
        if (!result.ok && !quiet) this.labActions.reportError({ command: label, code: result.error.code, message: result.error.message });
        resolve(result);
      });
    });
  }
}

/**
 * The classroom, as a layer on the browser's one socket client
 * (components/lab/lab-connection.ts), speaking `classroom:*`.
 *
 * It joins the class (as instructor or learner), re-joins as the same person
 * after a reconnect, and feeds two stores: the classroom store (roster, demo,
 * "follow me") and a lab store fed by the same `applyLabPush` as a personal
 * lab, so the same components show the shared lab. Every lab push is
 * filtered by the classroom's labId; the pushes that arrive before the
 * join's acknowledgement wait per labId (LabPushRouter). The run's verdict
 * is always the server's, sent live or in the join's catch-up.
 *
 * The lab's controls talk to `lab`, a LabSocketClient whose commands are
 * relayed through `classroom:command` (the server refuses them for learners).
 */
import type { ClassroomDemoStarted, ClassroomFollow, ClassroomJoined, ClassroomProgress, DemoRef, DemoSummary, RosterEntry } from '@/lib/classroom';
import type { CommandRequest, CommandValue } from '@/lib/commands';
import type { ClientEventName } from '@/lib/protocol';
import type { RunInfo } from '@/lib/run';
import type { LabStore } from '@/components/lab/lab-store';
import { applyLabPush, LabConnection, toErrorCode, type Answer, type LabPush, type LabSocket } from '@/components/lab/lab-connection';
import { commandName, LabSocketClient, type CommandName, type CommandResult, type LabCommandTransport } from '@/components/lab/socket-client';
import { builtinDemoKey } from '@/lib/classroom';
import { INSTRUCTOR_SESSION_PATH } from '@/lib/classroom-names';
import { words, type WordValue, type Words } from '@/lib/words';
import {
  isClassroomLabCommand,
  LabPushRouter,
  learnerKey,
  saveCredentials,
  INSTRUCTOR_TOKEN_KEY,
  type Credentials,
  type ClassroomNote,
  type CredentialStorage,
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
  /** Trades the instructor's ticket for this browser's HttpOnly instructor cookie (a same-site POST); tests stand in for it. */
  rememberInstructor?: (ticket: string) => Promise<void>;
}

/** The page's POST: the server answers with the cookie; a failure only means the token is asked for next time. */
export async function postTicket(ticket: string): Promise<void> {
  const res = await fetch(INSTRUCTOR_SESSION_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticket }), credentials: 'same-origin' });
  if (!res.ok) throw new Error(`the server refused the instructor's ticket (HTTP ${res.status})`);
}

/** The class's own pushes, named in the error list. */
const CLASS = commandName('class');

/** A demo's title for a command's name: a built-in demo's from the catalogue, a lesson's as the server sent it. */
function demoTitleValue(demo: Pick<DemoSummary, 'ref' | 'title'>): WordValue {
  const key = 'builtin' in demo.ref ? builtinDemoKey(demo.ref.builtin) : null;
  return key ? { words: words(`demos.builtin.${key}.title`) } : demo.title;
}

export class ClassroomClient {
  /** The shared lab's commands (Kill Node 3, …), routed through classroom:command. */
  readonly lab: LabSocketClient;
  private readonly connection: LabConnection;
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
    this.connection = new LabConnection(options.openSocket);
    const transport: LabCommandTransport = { request: (event, input, timeoutMs) => this.relayLabCommand(event, input, timeoutMs) };
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
    if (this.connection.socket) return;
    this.credentials = credentials;
    this.classActions.setStatus(credentials ? 'connecting' : 'idle');
    const socket = this.connection.start({
      connected: () => {
        if (this.credentials) this.join(this.credentials);
      },
      lost: () => {
        const status = this.classState.status;
        if (status === 'joined' || status === 'joining') this.classActions.setStatus('reconnecting', null, null, 'lost');
      },
      refused: (message, retrying, words) => {
        if (!retrying) this.classActions.setStatus('failed', message, null, 'refused', words ?? null);
      },
      push: (labId, push) => {
        if (push.kind !== 'closed') return this.router.push(labId, push);
        if (labId === this.router.current) this.over(push.reason, 'closed', push.words ?? null);
      },
      error: ({ code, message, words: said }) => this.labActions.reportError({ command: 'Class', commandWords: CLASS.words, code: toErrorCode(code), message, words: said }),
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
    socket.on('classroom:ended', ({ code, reason, words }) => {
      if (ours(code)) this.over(reason, null, words ?? null);
    });
    socket.on('classroom:instructor', ({ code, away }) => {
      if (ours(code)) this.classActions.instructor(away);
    });
    socket.on('classroom:removed', ({ code, reason, words }) => {
      if (!ours(code)) return;
      // The server already took this tab out of the class's rooms; leaving clears what it keeps of the tab's seat.
      void this.connection.request('classroom:leave', {}, this.ackTimeoutMs);
      this.forget();
      this.classActions.removed(reason, words ?? null);
      this.labActions.setConnection('closed', reason, null, words ?? null);
    });
  }

  stop(): void {
    this.joinAttempt++;
    this.connection.stop();
  }

  /** Joins (or re-joins) the class as `credentials` say. */
  join(credentials: Credentials): void {
    this.credentials = credentials;
    if (!this.connection.connected) {
      this.classActions.setStatus('connecting');
      return;
    }
    const attempt = ++this.joinAttempt;
    this.classActions.setStatus('joining');
    this.router.expectJoin();
    const input =
      credentials.role === 'instructor'
        ? credentials.token === null
          ? { code: credentials.code, asInstructor: true as const }
          : { code: credentials.code, instructorToken: credentials.token }
        : { code: credentials.code, name: credentials.name };
    void this.connection.request('classroom:join', input, this.joinTimeoutMs).then((answer) => {
      if (attempt !== this.joinAttempt) return;
      if (!answer.answered) {
        this.classActions.setStatus('failed', null, 'timeout', 'timeout');
        return;
      }
      const result = answer.result;
      if (!result.ok) {
        this.refused(credentials, result.error.code, result.error.message, result.error.words ?? null);
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
    if (joined.instructorTicket) void this.remember(joined.instructorTicket);
  }

  /** Sets (or renews) the browser's instructor cookie, so reopening the console does not ask for the token. */
  private async remember(ticket: string): Promise<void> {
    try {
      await (this.options.rememberInstructor ?? postTicket)(ticket);
    } catch (error) {
      // Not fatal: this tab keeps its token; the next console opened in this browser asks for it again.
      console.warn('[classroom] could not remember the instructor in this browser:', error);
    }
  }

  private refused(credentials: Credentials, code: string, message: string, words: Words | null): void {
    this.router.reset();
    if (credentials.role === 'instructor' && code === 'forbidden') {
      // A wrong or stale token: forget it and ask again. No cookie (a first visit) is no error: just ask.
      this.options.storage?.removeItem(INSTRUCTOR_TOKEN_KEY);
      this.credentials = null;
      if (credentials.token === null) this.classActions.setStatus('idle');
      else this.classActions.setStatus('idle', message, code, null, words);
      return;
    }
    if (credentials.role === 'learner' && code === 'invalid-input') {
      this.credentials = null;
      this.classActions.setStatus('idle', message, code, null, words);
      return;
    }
    this.classActions.setStatus(code === 'not-found' ? 'ended' : 'failed', message, code, null, words);
  }

  /** The tab is no longer in the class: it forgets its seat and stops re-joining. */
  private forget(): void {
    const credentials = this.credentials;
    if (credentials?.role === 'learner') this.options.storage?.removeItem(learnerKey(credentials.code));
    this.credentials = null;
    this.router.reset();
  }

  private over(reason: string, note: ClassroomNote | null = null, words: Words | null = null): void {
    this.forget();
    this.classActions.ended(reason, note, words);
    this.labActions.setConnection('closed', reason, null, words);
  }

  private apply(push: LabPush): void {
    if (push.kind === 'closed') return; // handled as it arrives, never held for a join
    if (push.kind === 'moved') return; // a classroom's lab is nobody's own: it never moves to a tab
    // A demo's start also comes as classroom:demo; the lab's own run:started may follow it.
    if (push.kind === 'run-started') return this.showRun(push.info);
    applyLabPush(this.options.labStore, push, this.now());
  }

  /** A new run on the shared lab (a demo): the last run's verdict and timeline give way to it. */
  private showRun(info: RunInfo): void {
    if (this.options.labStore.getState().run.info?.runId === info.runId) return;
    this.labActions.runRequested({ code: '', scenario: null, checker: null });
    this.labActions.runStarted(info);
  }

  /** The class lab's controls: a lab command, relayed to the class's lab by `classroom:command`. */
  private relayLabCommand(event: ClientEventName, input: unknown, timeoutMs: number): Promise<Answer<unknown>> {
    if (!isClassroomLabCommand(event)) {
      return Promise.resolve({ answered: true, result: { ok: false, error: { code: 'forbidden', message: `${event} is not available on the class's lab` } } });
    }
    if (this.classState.status !== 'joined') return Promise.resolve({ answered: false, why: 'offline' });
    return this.connection.request('classroom:command', { command: event, input }, timeoutMs);
  }

  /** Runs a failure demo on the class's lab, with `seed` (or the demo's own). */
  async runDemo(demo: Pick<DemoSummary, 'ref' | 'title'>, seed?: number): Promise<CommandResult<ClassroomDemoStarted>> {
    const input: { demo: DemoRef; seed?: number } = { demo: demo.ref };
    if (seed !== undefined) input.seed = seed;
    const result = await this.request('classroom:demo', input, { pending: `command:demo:${JSON.stringify(demo.ref)}`, label: `Run demo: ${demo.title}`, words: words('refusals.command.demo', { title: demoTitleValue(demo) }) }, this.joinTimeoutMs);
    if (result.ok) {
      this.classActions.demo(result.value);
      this.showRun(result.value.run);
    }
    return result;
  }

  follow(lesson: string, scenario: string | null): Promise<CommandResult<ClassroomFollow>> {
    return this.request('classroom:follow', { lesson, scenario }, commandName('follow'));
  }

  /** Instructor: removes a learner from the class (they may come back only once allowed). */
  removeLearner(learnerId: string, name: string): Promise<CommandResult<RosterEntry>> {
    return this.request('classroom:remove', { learnerId }, { pending: `command:removeLearner:${learnerId}`, label: `Remove ${name}`, words: words('refusals.command.removeLearner', { name }) });
  }

  /** Instructor: lets a removed learner join again. */
  readmitLearner(learnerId: string, name: string): Promise<CommandResult<RosterEntry>> {
    return this.request('classroom:readmit', { learnerId }, { pending: `command:readmitLearner:${learnerId}`, label: `Allow ${name} back`, words: words('refusals.command.readmitLearner', { name }) });
  }

  end(): Promise<CommandResult<null>> {
    return this.request('classroom:end', {}, commandName('endClass'));
  }

  /** A learner's progress report (quietly: the roster is the instructor's, a failed report is retried on the next change). */
  reportProgress(progress: ClassroomProgress): Promise<CommandResult<null>> {
    return this.request('classroom:progress', progress, commandName('progress'), this.ackTimeoutMs, { quiet: true });
  }

  async loadDemos(): Promise<CommandResult<DemoSummary[]>> {
    const result = await this.request('classroom:demos', {}, commandName('demos'));
    if (result.ok) this.classActions.demos(result.value);
    return result;
  }

  private async request<E extends 'classroom:demo' | 'classroom:follow' | 'classroom:end' | 'classroom:progress' | 'classroom:demos' | 'classroom:remove' | 'classroom:readmit'>(
    event: E,
    input: CommandRequest<E>,
    command: CommandName,
    timeoutMs = this.ackTimeoutMs,
    { quiet = false }: { quiet?: boolean } = {},
  ): Promise<CommandResult<CommandValue<E>>> {
    const { pending, label, words: commandWords } = command;
    const fail = (code: 'offline' | 'timeout', message: string): CommandResult<never> => {
      if (!quiet) this.labActions.reportError({ command: label, commandWords, code, message });
      return { ok: false, error: { code, message } };
    };
    if (!this.connection.connected || this.classState.status !== 'joined') return fail('offline', 'Not in the class right now.');
    if (!quiet) this.labActions.setPending(pending, true);
    const answer = await this.connection.request(event, input, timeoutMs);
    if (!quiet) this.labActions.setPending(pending, false);
    if (!answer.answered) return fail('timeout', `No answer from the lab server within ${Math.round(timeoutMs / 1000)} s.`);
    const result = answer.result;
    if (!result.ok && !quiet) this.labActions.reportError({ command: label, commandWords, code: result.error.code, message: result.error.message, words: result.error.words });
    return result;
  }
}

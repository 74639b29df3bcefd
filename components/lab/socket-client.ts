/**
 * The tab's own lab, as a layer on the browser's one socket client
 * (lab-connection.ts): it joins the tab's lab, folds that lab's pushes into
 * the store, re-joins after a reconnect, and turns commands into requests
 * that resolve to a Result (pending under their button's name meanwhile).
 * Components never touch the socket: they read the store and call these
 * commands.
 */
import { sameTopology, type LabSnapshot, type Topology } from '@/lib/cluster';
import type { GradeResult } from '@/lib/grading';
import type { Locale } from '@/i18n/routing';
import type { ExploreInput, ExploreResult } from '@/lib/explore';
import type { ExperimentResult } from '@/lib/experiment/design';
import type { ExperimentInput } from '@/lib/experiment/input';
import type { CommandRequest, CommandValue } from '@/lib/commands';
import type { ClientEventName } from '@/lib/protocol';
import type { LabError } from '@/lib/result';
import type { RunEnded, RunInfo, RunStartInput } from '@/lib/run';
import type { Trigger } from '@/lib/scenario';
import { FAULTS, type FaultOp, type FaultReply } from '@/lib/faults/catalogue';
import { faultCommandWords, faultPendingKey, type FaultTarget } from '@/lib/faults/command-words';
import checkerWords from '@/messages/en/checker.json' with { type: 'json' };
import refusalWords from '@/messages/en/refusals.json' with { type: 'json' };
import { render, words, type Words } from '@/lib/words';
import type { FaultRequest } from '@/lib/faults/inputs';
import type { LabJoinInput, LabResetInput, LabTakeInput, TopologyInput } from '@/lib/schemas';
import type { RunRequest } from './run-state';
import type { CommandErrorCode, CommandNote, LabStore } from './lab-store';
import { applyLabPush, LabConnection, toErrorCode, type Answer, type LabSocket } from './lab-connection';

export type { LabSocket } from './lab-connection';

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
   * This tab in the learner's words (its page's title): when this tab takes one of the browser's labs from
   * another tab ("Use the lab here"), that tab shows it as where its lab went.
   */
  place?: () => string;
  /**
   * Sends commands somewhere else than this client's own socket (a
   * classroom routes them through `classroom:command`). With a transport,
   * `start()` is not needed: the transport's owner feeds the store.
   */
  transport?: LabCommandTransport;
}

/** Where a client's commands go when they do not go to its own lab (see `transport`). */
export interface LabCommandTransport {
  /** Sends lab command `event` with `input`; the server's Result, or why none came. */
  request(event: ClientEventName, input: unknown, timeoutMs: number): Promise<Answer<unknown>>;
}

export const LAB_ID_STORAGE_KEY = 'lock-lab:lab-id';
/** The server's words when a browser's share of labs is all in its other tabs (refusals.json lab.perBrowser). */
const PER_BROWSER_REFUSAL = 'refusals.lab.perBrowser';
/** The page the tab's lab last served (see `page`). */
export const LAB_PAGE_STORAGE_KEY = 'lock-lab:lab-page';


/** Fault inputs are whole milliseconds and numbers; a field left undefined is left out. */
function wholeNumbers<T extends object>(input: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined) out[key] = typeof value === 'number' ? Math.round(value) : value;
  return out as T;
}

/** A command: the key its pending state is kept under (data, never prose), its English name and its words for the page. */
export interface CommandName {
  pending: string;
  label: string;
  words: Words;
}

/** The English that names a command in a log line or an error, rendered from the catalogue every language shares. */
const inEnglish = (said: Words): string => render(said, 'en', { refusals: refusalWords, checker: checkerWords });

/** One of the lab's own commands: its name is `refusals.command.<key>` in the catalogue, in every language. */
export const commandName = (key: keyof typeof refusalWords.command): CommandName => {
  const said = words(`refusals.command.${key}`);
  return { pending: `command:${key}`, label: inEnglish(said), words: said };
};

/** A fault's command: pending under its op and target; its English from the same catalogue as every language's. */
function faultCommandName(op: FaultOp, target: FaultTarget): CommandName {
  const said = faultCommandWords(op, target);
  return { pending: faultPendingKey(op, target), label: inEnglish(said), words: said };
}

export class LabSocketClient {
  private readonly connection: LabConnection;
  /** Counts joins so a late answer to an abandoned join is ignored. */
  private joinAttempt = 0;
  private readonly now: () => number;
  private readonly ackTimeoutMs: number;
  private readonly joinTimeoutMs: number;
  private readonly gradeTimeoutMs: number;

  constructor(private readonly options: LabSocketClientOptions) {
    this.now = options.now ?? (() => performance.now());
    this.ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
    // Past the server's wait for a lab at a full server (LOCKLAB_LAB_WAIT_MS, 60 s), so its answer — a lab or why not — arrives.
    this.joinTimeoutMs = options.joinTimeoutMs ?? 75_000;
    this.gradeTimeoutMs = options.gradeTimeoutMs ?? 300_000;
    this.connection = new LabConnection(options.openSocket);
  }

  private get actions() {
    return this.options.store.getState().actions;
  }

  /** Connects and joins the tab's lab. Calling it twice does nothing. */
  start(): void {
    const store = this.options.store;
    this.connection.start({
      // A tab whose lab moved to another tab stays without one, and says so, until the learner takes one back:
      // a reconnect neither re-joins nor replaces the notice.
      connected: () => {
        if (!this.moved()) this.join();
      },
      lost: () => {
        if (!this.moved()) this.actions.setConnection('reconnecting', null, 'lost');
      },
      refused: (message, retrying, words) => {
        if (retrying && this.moved()) return;
        if (retrying) {
          const first = store.getState().connection === 'connecting';
          this.actions.setConnection(first ? 'connecting' : 'reconnecting', null, 'unreachable');
        } else {
          // Not retried: the server turned the connection down (e.g. a foreign Origin).
          this.actions.setConnection('failed', message, 'refused', words ?? null);
        }
      },
      push: (labId, push) => {
        if (push.kind === 'snapshot') {
          // A snapshot names the tab's lab (a join's, or the lab rebuilt in place).
          this.options.storage?.setItem(LAB_ID_STORAGE_KEY, labId);
          return applyLabPush(store, push, this.now());
        }
        if (labId !== store.getState().labId) return;
        if (push.kind === 'moved') {
          // Another tab of this browser took this lab: this tab no longer holds it, not even after a reload.
          this.joinAttempt++;
          this.options.storage?.removeItem(LAB_ID_STORAGE_KEY);
          return this.actions.labElsewhere({ kind: 'moved', to: push.to });
        }
        if (push.kind !== 'closed') return applyLabPush(store, push, this.now());
        this.options.storage?.removeItem(LAB_ID_STORAGE_KEY);
        this.actions.setConnection('closed', push.reason, null, push.words ?? null);
      },
      error: ({ code, message, words: said }) => this.actions.reportError({ command: 'Lab', code: toErrorCode(code), message, words: said }),
    });
  }

  /** Whether this tab's lab moved to another tab (and none came back here since). */
  private moved(): boolean {
    return this.options.store.getState().labElsewhere?.kind === 'moved';
  }

  /** Disconnects; the lab lives on on the server until its idle timeout, so a reload can re-attach. */
  stop(): void {
    this.joinAttempt++;
    this.connection.stop();
  }

  /**
   * Joins the lab this tab had, or a new one. Called on every (re)connect,
   * and by the "try again" / "new lab" buttons.
   */
  join({ fresh = false }: { fresh?: boolean } = {}): void {
    if (!this.connection.connected) return;
    const storage = this.options.storage;
    if (fresh) storage?.removeItem(LAB_ID_STORAGE_KEY);
    const labId = storage?.getItem(LAB_ID_STORAGE_KEY) ?? undefined;
    const page = this.options.page;
    const newPage = labId !== undefined && page !== undefined && storage?.getItem(LAB_PAGE_STORAGE_KEY) !== page;
    const attempt = ++this.joinAttempt;
    this.actions.setConnection('joining', null, labId ? 'reattaching' : 'starting');

    const input: LabJoinInput = labId ? { labId } : {};
    if (newPage) input.clean = true;
    const want = this.options.want;
    if (want?.topology) input.topology = want.topology;
    if (want?.clients !== undefined) input.clients = want.clients;
    void this.connection.request('lab:join', input, this.joinTimeoutMs).then((answer) => {
      if (attempt !== this.joinAttempt) return;
      if (!answer.answered) {
        this.actions.setConnection('failed', null, 'joinTimeout');
        return;
      }
      const result = answer.result;
      if (result.ok) {
        storage?.setItem(LAB_ID_STORAGE_KEY, result.value.labId);
        if (page !== undefined) storage?.setItem(LAB_PAGE_STORAGE_KEY, page);
        this.actions.receiveSnapshot(result.value, this.now());
        if (want?.topology && !sameShape(result.value.topology, want.topology)) {
          // This tab's lab was made for another lesson: swap it for one of the shape this view needs.
          this.actions.setConnection('joining', null, 'settingUp');
          void this.resetLab({ topology: want.topology, ...(want.clients !== undefined ? { clients: want.clients } : {}) }).then((reset) => {
            if (attempt === this.joinAttempt) this.actions.setConnection(reset.ok ? 'ready' : 'failed', reset.ok ? null : reset.error.message, null, reset.ok ? null : (reset.error.words ?? null));
          });
          return;
        }
        this.actions.setConnection('ready');
        return;
      }
      const { code, message, words: said = null } = result.error;
      if (code === 'lab-full' && said?.key === PER_BROWSER_REFUSAL) {
        // This browser's labs are all in its other tabs: one message, and "Use the lab here" (useLabHere).
        this.actions.labElsewhere({ kind: 'share' });
      } else if (code === 'lab-full') {
        this.actions.setConnection('full', message, null, said);
      } else if (labId !== undefined && code !== 'internal') {
        // The lab this tab remembers is gone (idle timeout, server restart): start a new one.
        this.join({ fresh: true });
      } else {
        this.actions.setConnection('failed', message, null, said);
      }
    });
  }

  /**
   * "Use the lab here": moves one of this browser's labs from another tab to this one (the server picks the one
   * idle longest, never one with a run or a check going), rebuilt for this page. Refused in words when every one
   * is busy; the tab then stays as it was, with the reason under its message.
   */
  useLabHere(): void {
    const before = this.options.store.getState().labElsewhere;
    if (!before || !this.connection.connected) return;
    const storage = this.options.storage;
    const page = this.options.page;
    const want = this.options.want;
    const attempt = ++this.joinAttempt;
    this.actions.setConnection('joining', null, 'takingLab');
    const input: LabTakeInput = {};
    if (want?.topology) input.topology = want.topology;
    if (want?.clients !== undefined) input.clients = want.clients;
    const place = this.options.place?.().trim().slice(0, 120);
    if (place) input.place = place;
    void this.connection.request('lab:take', input, this.joinTimeoutMs).then((answer) => {
      if (attempt !== this.joinAttempt) return;
      if (!answer.answered) return this.actions.setConnection('failed', null, 'joinTimeout');
      const result = answer.result;
      if (!result.ok) return this.actions.labElsewhere(before, result.error.message, result.error.words ?? null);
      storage?.setItem(LAB_ID_STORAGE_KEY, result.value.labId);
      if (page !== undefined) storage?.setItem(LAB_PAGE_STORAGE_KEY, page);
      this.actions.receiveSnapshot(result.value, this.now());
      this.actions.setConnection('ready');
    });
  }

  /**
   * Any fault of the catalogue (lib/faults), pending under its op and target
   * (`faultPendingKey`, what its button looks for) until the server answers.
   */
  fault<K extends FaultOp>(op: K, input: FaultRequest<K>): Promise<CommandResult<FaultReply<K>>> {
    // The event and its ack are paired in lib/protocol.ts (FaultEvents); `send` cannot follow a generic event name.
    const name = faultCommandName(op, input as FaultTarget);
    return this.send(FAULTS[op].event as ClientEventName, wholeNumbers(input) as never, name) as Promise<CommandResult<FaultReply<K>>>;
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
    const breakpoint = this.options.store.getState().breakpoint;
    if (breakpoint) input.breakpoint = breakpoint;
    // Starting may wait for a sandbox worker to warm up.
    const result = await this.send('run:start', input, commandName('run'), this.joinTimeoutMs);
    if (result.ok) this.actions.runStarted(result.value);
    else this.actions.runFailed(result.error.message, result.error.words);
    return result;
  }

  /** "Pause the run when …": kept for the next runs, and set on the run going on (null clears it). */
  async setBreakpoint(when: Trigger | null): Promise<CommandResult<{ running: boolean }> | null> {
    this.actions.chooseBreakpoint(when);
    const run = this.options.store.getState().run;
    if (run.phase !== 'running') return null;
    return this.send('run:break', { when }, commandName('breakpoint'));
  }

  /** Resume (or, with `step`, Step) from the breakpoint the run stands at. */
  continueRun(step: boolean): Promise<CommandResult<null>> {
    return this.send('run:continue', { step }, step ? commandName('step') : commandName('resumeRun'));
  }

  async stopRun(): Promise<CommandResult<RunEnded | null>> {
    this.actions.runStopping();
    const result = await this.send('run:stop', {}, commandName('stop'));
    if (result.ok && result.value) this.actions.runEnded(result.value);
    return result;
  }

  /**
   * "Check my solution": the server runs `code` under the exercise's
   * scenarios and seeds, one graded run after another in this tab's lab (so
   * their run pushes show each run, and the failing one last). The store
   * shows the grader's progress and then its answer.
   */
  async checkExercise(slug: string, code: string, locale: Locale = 'en'): Promise<CommandResult<GradeResult>> {
    this.actions.exerciseRequested(slug, this.now());
    // Each graded run restores the lab and runs for seconds: allow minutes, not the usual ack time.
    // The page's language: the grader writes the answer's words (a failed hidden check, a probe's sentence, the hint) in it.
    const result = await this.send('exercise:check', { slug, code, locale }, commandName('check'), this.gradeTimeoutMs);
    if (result.ok) this.actions.exerciseResult(result.value);
    else this.actions.exerciseFailed(result.error.message, result.error.words);
    return result;
  }

  /**
   * "Explore": the server searches random fault schedules for one that breaks `code`, shrinks what it finds,
   * and plays the minimal schedule last in this tab's lab. The store shows the search and its answer.
   */
  async explore(input: ExploreInput): Promise<CommandResult<ExploreResult>> {
    this.actions.exploreRequested();
    // The search runs for up to a minute, then shrinks and replays: allow for that, not the usual ack time.
    const result = await this.send('explore:run', input, commandName('explore'), this.gradeTimeoutMs);
    if (result.ok) this.actions.exploreResult(result.value);
    else this.actions.exploreFailed(result.error.message, result.error.words);
    return result;
  }

  /**
   * Lesson 8's experiment: the server plays its variants as runs in this tab's lab, one after another (their
   * run pushes show each), and fills a row as each ends. The store shows the rows as they come, then the answer.
   */
  async runExperiment(input: ExperimentInput = {}): Promise<CommandResult<ExperimentResult>> {
    this.actions.experimentRequested();
    // Four runs of a few seconds each, each waiting for room on the server: allow minutes, as for a check.
    // A connection that drops and comes back (socket.io gives up on the answer) loses the answer, not the experiment:
    // its progress reaches the lab's room again once the tab is back, the last one with the result.
    const result = await this.send('experiment:run', input, commandName('experiment'), this.gradeTimeoutMs, true);
    if (result.ok) this.actions.experimentResult(result.value);
    else if (result.error.code === 'timeout') this.actions.experimentAnswerLost();
    else this.actions.experimentFailed(result.error.message, result.error.words);
    return result;
  }

  async resetLab(input: LabResetInput = {}): Promise<CommandResult<LabSnapshot>> {
    const result = await this.send('lab:reset', input, commandName('reset'), this.joinTimeoutMs);
    if (result.ok) this.actions.receiveSnapshot(result.value, this.now());
    return result;
  }

  /**
   * Sends a command, marks it pending under its button's name, and resolves
   * with its Result; a failure is also put in the store so the page shows it.
   */
  private async send<E extends ClientEventName>(
    event: E,
    input: CommandRequest<E>,
    command: CommandName,
    timeoutMs = this.ackTimeoutMs,
    /** The caller hears of the answer some other way too (the experiment's progress): a lost answer is not an error to show. */
    lostAnswerExpected = false,
  ): Promise<CommandResult<CommandValue<E>>> {
    const { pending } = command;
    const transport = this.options.transport;
    const online = transport ? true : this.connection.connected;
    if (!online) return this.failed(command, 'offline', 'Not connected to the lab server.', { kind: 'offline' });
    this.actions.setPending(pending, true);
    const answer = transport
      ? ((await transport.request(event, input, timeoutMs)) as Answer<CommandValue<E>>)
      : await this.connection.request(event, input, timeoutMs);
    this.actions.setPending(pending, false);
    if (!answer.answered) {
      if (lostAnswerExpected && answer.why === 'timeout') return { ok: false, error: { code: 'timeout', message: 'The answer was lost (the connection dropped?)' } };
      return answer.why === 'offline'
        ? this.failed(command, 'offline', 'Not connected to the lab server.', { kind: 'offline' })
        : this.failed(command, 'timeout', `No answer from the lab server within ${Math.round(timeoutMs / 1000)} s.`, { kind: 'noAnswer', seconds: Math.round(timeoutMs / 1000) });
    }
    const result = answer.result;
    if (!result.ok) this.actions.reportError({ command: command.label, commandWords: command.words, code: result.error.code, message: result.error.message, words: result.error.words });
    return result;
  }

  private failed(command: CommandName, code: CommandErrorCode, message: string, note: CommandNote): CommandResult<never> {
    this.actions.reportError({ command: command.label, commandWords: command.words, code, message, note });
    return { ok: false, error: { code, message } };
  }
}

/** Whether a lab's topology is what a view asked for (unset fields take the schema's defaults). */
export function sameShape(actual: Topology, wanted: TopologyInput): boolean {
  const kind = wanted.kind ?? 'masters';
  const nodes = wanted.nodes ?? (kind === 'replicated' ? 2 : 5);
  return sameTopology(actual, { kind, nodes, persistence: wanted.persistence ?? 'none' });
}

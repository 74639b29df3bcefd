/**
 * The runs of one lab: start the learner's program in the sandbox as N
 * clients whose connections go through the lab's links, play the scenario,
 * feed the checker as the history grows, and report the verdict. One run at
 * a time per lab: starting another stops the current one first.
 */
import crypto from 'node:crypto';
import { linkProcessPid } from '../cluster/link-host';
import { CpuWaitMeter } from './cpu-wait';
import { DEFAULT_CLIENTS } from '@/lib/cluster';
import { EventEmitter } from 'node:events';
import { IncrementalChecker } from '@/lib/checker';
import type { Verdict } from '@/lib/checker';
import type { HistoryEvent, HistoryInput } from '@/lib/history';
import { LabOperationError } from '@/lib/result';
import { drawSeed } from '@/lib/random';
import type { z } from 'zod';
import { failureSaid } from './failure-words';
import { runStartSchema, type Diagnostic, type CheckRunTag, type RunCatchUp, type RunEnded, type RunInfo, type RunOutcome, type RunVerdict } from '@/lib/run';
import { clientStart, schedule, type ScenarioStep, type Trigger } from '@/lib/scenario';
import type { RunUsage } from '../lab/history-log';
import type { Lab } from '../lab/lab';
import { refuse } from '../ops/refusals';
import type { RunningClients } from '../nemesis/client-faults';
import { announceScenario, armedFault, isArmedInSandbox, isSetupStep, playSetupSteps, runScenario, type ScenarioHandle } from '../scenarios/scenario-runner';
import type { RunHandle, SandboxLimits, SandboxPool } from '../sandbox';
import { WORKER_HEAP_MB } from '../sandbox/pool';
import { say } from '@/lib/checker/said';
import type { Said, Words } from '@/lib/words';
import { cutVerdict, historyCutSaid, type HistoryCut } from './history-cut';
import type { Admitted, RunAdmission } from './run-admission';
import { clampLimits } from './run-limits';
import { refusal } from '@/lib/refusal-words';

/** A run's request, parsed at the edge it came in by (a browser's run:start, a classroom demo, a lesson file). */
export type RunStart = z.output<typeof runStartSchema>;

/** How the server runs it, beyond what was asked. */
export interface RunOptions {
  /**
   * End the run as soon as its verdict can no longer change (IncrementalChecker.decided). Only for runs judged
   * by that verdict as a whole — what a learner presses Run for. A graded probe is judged by its own assertions
   * and a random schedule by safety alone: cut short on a stuck lock, they would lose the very failure they
   * were waiting for, so the grader and Explore never ask for it.
   */
  endWhenDecided?: boolean;
  /**
   * The run may be stopped, once it has had its slice, for another browser's run waiting at a full server
   * (run-admission.ts). Only for what a learner presses Run for: a check's or a search's run cut short would
   * fail the whole check.
   */
  yieldable?: boolean;
  /**
   * How a client's error reads in the history and the outcome a page shows. The grader's probes fail with a
   * sentence named by key (JSON, server/grading/probe-program.ts): the learner watching the graded run in their
   * lab reads that sentence in English, not its JSON.
   */
  clientError?: (error: string) => string;
  /** The run is one of "Check my solution"'s: said in its RunInfo, so the page never shows it as the learner's. */
  check?: CheckRunTag;
}

/** A run as startNow hands it on once admitted: the request resolved (clients, seed, clamped limits) and the server's options. */
interface AdmittedRun {
  code: string;
  clients: number;
  scenario: RunStart['scenario'];
  seed: number;
  limits: Partial<SandboxLimits>;
  /** The clamped limits' notes, in English and as data. */
  notes: { text: string; words: Words | undefined }[];
  checkerSettings: RunStart['checker'];
  topology: RunStart['topology'];
  fresh: RunStart['fresh'];
  endWhenDecided: boolean;
  yieldable: boolean;
  clientError: ((error: string) => string) | null;
  check: CheckRunTag | null;
  breakpoint: Trigger | null;
}

interface Events {
  /** The run waits for room on the server: this many runs are ahead of it (running or queued). */
  waiting: [{ ahead: number }];
  started: [RunInfo];
  verdict: [RunVerdict];
  diagnostic: [Diagnostic & { runId: string }];
  ended: [RunEnded];
}

/** A live verdict at most this often while a run goes (the final one is sent at the end regardless). */
const VERDICT_INTERVAL_MS = 250;
/** Keeps op ids unique across a lab's runs, so the timeline can key Redis operations by id. */
const OP_IDS_PER_RUN = 10_000_000;
/** What a run's worker holds besides its clients' QuickJS heaps: its JS heap cap plus QuickJS's module and young generation. */
export const WORKER_RESERVE_BYTES = (WORKER_HEAP_MB + 32) * 2 ** 20;

class ActiveRun implements RunningClients {
  readonly paused = new Set<number>();
  readonly ended = new Set<number>();
  scenario: ScenarioHandle | null = null;
  verdictTimer: NodeJS.Timeout | null = null;
  /** Why the run was ended before its clients did: its verdict could no longer change. */
  decided: Said | null = null;
  /** Why the run was stopped for another browser's turn (run admission), said in its outcome as in its console. */
  yielded: { message: string; words?: Words } | null = null;
  /** The run was told its lab's connections are refused past its share of the links' descriptors. */
  linkSocketsNoted = false;
  /** Set when the run passed its share of the lab's history: nothing more of it is recorded. */
  cut: HistoryCut | null = null;
  finished: Promise<RunEnded>;
  private resolveFinished!: (ended: RunEnded) => void;

  constructor(
    readonly runId: string,
    readonly clients: number,
    readonly handle: RunHandle,
    readonly checker: IncrementalChecker,
    readonly info: RunInfo,
  ) {
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
  }

  finish(ended: RunEnded): void {
    this.resolveFinished(ended);
  }

  /**
   * Follows the run's own client events, so pause/crash refusals match what the clients really did — including
   * what happened in the worker alone (a pause's own end after its duration, a scenario's armed fault).
   */
  observe(event: HistoryEvent): void {
    if (event.type !== 'client' || event.runId !== this.runId) return;
    if (event.event === 'pause') this.paused.add(event.client);
    if (event.event === 'resume') this.paused.delete(event.client);
    if (event.event === 'exit' || event.event === 'error' || event.event === 'crash') {
      this.paused.delete(event.client);
      this.ended.add(event.client);
    }
  }

  isRunning(client: number): boolean {
    return client >= 1 && client <= this.clients && !this.ended.has(client);
  }
  isPaused(client: number): boolean {
    return this.paused.has(client);
  }
  // What the server asks for counts at once, not when the worker's event comes back: a Resume pressed (or a
  // scenario step fired) right after a Pause must find the client paused.
  pause(client: number, durationMs?: number): void {
    this.paused.add(client);
    this.handle.pauseClient(client, durationMs);
  }
  resume(client: number): void {
    this.paused.delete(client);
    this.handle.resumeClient(client);
  }
  crash(client: number): void {
    this.handle.crashClient(client);
  }
  skew(client: number, offsetMs: number): void {
    this.handle.setSkew(client, offsetMs);
  }
}

/** How a run ended, as the learner is told: cut for its history, ended early once decided, or as the sandbox said. */
function endedOutcome(outcome: RunOutcome, cut: HistoryCut | null, decided: Said | null, yielded: { message: string; words?: Words } | null): RunOutcome {
  if (cut) return cut.words ? { ...outcome, status: 'limit', error: cut.message, errorWords: cut.words } : { ...outcome, status: 'limit', error: cut.message };
  if (decided !== null && outcome.status === 'stopped') return { ...outcome, status: 'decided', error: decided.message, errorWords: decided.words };
  if (yielded !== null && outcome.status === 'stopped') return { ...outcome, error: yielded.message, ...(yielded.words ? { errorWords: yielded.words } : {}) };
  return outcome;
}

export class LabRuns extends EventEmitter<Events> {
  private active: ActiveRun | null = null;
  private runCount = 0;
  private starting: Promise<unknown> = Promise.resolve();
  private last: { info: RunInfo; ended: RunEnded } | null = null;
  /** Aborts the wait for admission of a run that a newer Run (or Stop) replaced. */
  private waitingFor: AbortController | null = null;
  /**
   * Set when the lab was rebuilt for another page: a "Check my solution" or an Explore of the page
   * the tab left would otherwise go on starting runs in the rebuilt lab, shown to the new page.
   */
  private retired = false;

  constructor(
    private readonly lab: Lab,
    private readonly pool: SandboxPool,
    /** The server's run budget; without one (tests, benchmarks) runs start at once. */
    private readonly admission: RunAdmission | null = null,
    /** The browser whose share of the run budget this lab's runs count against; null: the lab is a share of its own. */
    private readonly owner: string | null = null,
  ) {
    super();
    lab.once('closed', () => void this.stop());
    lab.on('linkSocketsFull', (held, perLab) => this.linkSocketsFull(held, perLab));
  }

  /** The run going on is told, once, why its connections are refused (its lab's share of the links' descriptors). */
  private linkSocketsFull(held: number, perLab: number): void {
    const note = say('runNotes.linkSockets', { held: String(held), n: String(perLab) });
    // Counted and logged for operators (the link process reports it at most once a second per lab).
    refuse('link-sockets', { labId: this.lab.id, detail: { held, perLab } }, note);
    const run = this.active;
    if (!run || run.linkSocketsNoted) return;
    run.linkSocketsNoted = true;
    this.lab.history.append({ type: 'console', client: 0, level: 'warn', text: note.message, words: note.words, runId: run.runId });
  }

  /** The running program's clients, for the nemesis; null when nothing runs. */
  get current(): RunningClients | null {
    return this.active;
  }

  /** For a viewer who joins now: the run going on (with its verdict so far), or how the last one ended. */
  catchUp(): RunCatchUp {
    const run = this.active;
    return {
      active: run?.info ?? null,
      verdict: run ? { runId: run.runId, verdict: run.checker.verdict() } : null,
      last: this.last,
    };
  }

  /** Whether `runId` is the run the lab's viewers see: the last one, ended, with nothing after it. */
  isLastRun(runId: string): boolean {
    return this.active === null && this.last?.ended.runId === runId;
  }

  /** How the run `runId` ended: waits while it is the current run. */
  whenEnded(runId: string): Promise<RunEnded> {
    if (this.active?.runId === runId) return this.active.finished;
    if (this.last?.ended.runId === runId) return Promise.resolve(this.last.ended);
    return Promise.reject(new LabOperationError('not-found', refusal('run.gone', { runId })));
  }

  /** Keeps `extra` more sandbox workers warm until the returned function is called (a check playing in several labs). */
  keepWorkersWarm(extra: number): () => void {
    return this.pool.keepWarm(extra);
  }

  /** The recorded events of a run (within the history's budget): the grader quotes them as evidence. */
  historyOf(runId: string): HistoryEvent[] {
    return this.lab.history.since(0).filter((event) => event.runId === runId);
  }

  /** Starts one at a time: a second Run pressed while the first is being set up waits for it, then replaces it. */
  start(input: RunStart, options: RunOptions = {}): Promise<RunInfo> {
    this.waitingFor?.abort();
    const next = this.starting.then(
      () => this.startNow(input, options),
      () => this.startNow(input, options),
    );
    this.starting = next.catch(() => undefined);
    return next;
  }

  private async startNow(input: RunStart, options: RunOptions): Promise<RunInfo> {
    this.refuseIfRetired();
    const { code, clients: asked, limits: askedLimits, checker: checkerSettings, topology, fresh } = input;
    // One seed for the whole run, reported in RunInfo so it can be replayed: the one asked for, else the
    // scenario's, else a fresh one. With a scenario it is the scenario's seed too, so its schedule and the
    // clients' randomness replay together.
    const seed = input.seed ?? input.scenario?.seed ?? drawSeed();
    const scenario = input.scenario && { ...input.scenario, seed };
    const lab = this.lab;
    if (lab.closed) throw new LabOperationError('not-found', refusal('lab.closed'));
    await this.stop();
    const { limits, notes, noteWords } = clampLimits(askedLimits, this.pool.limits);
    if (notes.length) refuse('limits-clamped', { labId: lab.id, detail: { limits: notes.length } }, notes.join(' '));
    const clients = asked ?? scenario?.clients ?? DEFAULT_CLIENTS;
    const admitted = await this.admit(clients);
    try {
      return await this.startAdmitted({ code, clients, scenario, seed, limits, notes: notes.map((text, i) => ({ text, words: noteWords[i] })), checkerSettings, topology, fresh, endWhenDecided: options.endWhenDecided ?? false, yieldable: options.yieldable ?? false, clientError: options.clientError ?? null, check: options.check ?? null, breakpoint: input.breakpoint ?? null }, admitted);
    } catch (error) {
      admitted?.release();
      throw error;
    }
  }

  /** Waits for room in the server's run budget (each client's heap at its cap, plus the worker). */
  private async admit(clients: number): Promise<Admitted | null> {
    if (!this.admission) return null;
    const waiting = new AbortController();
    this.waitingFor = waiting;
    try {
      const cost = clients * this.pool.limits.memoryBytes + WORKER_RESERVE_BYTES;
      return await this.admission.admit(cost, { labId: this.lab.id, ...(this.owner ? { browser: this.owner } : {}) }, (ahead) => this.emit('waiting', { ahead }), waiting.signal);
    } finally {
      if (this.waitingFor === waiting) this.waitingFor = null;
    }
  }

  /** A run admitted to the server's budget: the lab made ready, its clients started, watched and judged. */
  private async startAdmitted(request: AdmittedRun, admitted: Admitted | null): Promise<RunInfo> {
    const { code, clients, scenario, seed, limits, check } = request;
    const lab = this.lab;
    if (lab.closed) throw new LabOperationError('not-found', refusal('lab.closed'));
    this.refuseIfRetired();
    await this.prepareNodes(request);
    const runId = `run-${++this.runCount}-${crypto.randomBytes(3).toString('hex')}`;
    const ports = await this.listenForClients(clients);
    const startedAt = lab.now();
    const checker = this.newChecker(request.checkerSettings, startedAt);
    const info: RunInfo = {
      runId,
      clients,
      scenario: scenario ? { id: scenario.id, title: scenario.title, seed: scenario.seed } : null,
      seed,
      startedAt,
      ...(check ? { check } : {}),
    };
    // Steps on the clients that wait for the run's own events are carried out by the sandbox, next to the
    // clients (see worker/armed-faults.ts); the scenario runner plays the rest.
    const plan = scenario ? schedule(scenario) : [];
    const armed = plan.filter(({ step }) => isArmedInSandbox(step));
    const setup = plan.filter(isSetupStep);
    if (scenario) {
      announceScenario(lab, scenario, plan, runId);
      checker.push(await this.playSetup(setup, runId));
    }
    // The nodes keep time for the run (prompt expiry) from before its first command to its end.
    const runEnded = await lab.runStarting();
    // Set before the sandbox's first event can arrive (events come over IPC, after this turn).
    let run: ActiveRun | undefined;
    let handle: RunHandle;
    try {
      handle = this.pool.startRun({
        runId,
        code,
        clients,
        startDelaysMs: scenario ? Array.from({ length: clients }, (_, i) => clientStart(scenario, i + 1)) : undefined,
        armed: armed.map(({ at, step }) => armedFault(step, at)),
        breakpoint: request.breakpoint,
        nodes: lab.nodes.map((n) => n.id),
        linkPort: (client, node) => ports.get(`${client}:${node}`) ?? null,
        credentials: lab.credentials.learner,
        limits,
        clock: { originEpochMs: lab.clockOrigin },
        onEvent: (event) => {
          if (lab.closed || run?.cut) return;
          this.record(run, runId, event, request.clientError);
        },
        onDiagnostic: (diagnostic) => this.emit('diagnostic', { ...inLearnerTerms(diagnostic, lab), runId }),
        opIdBase: this.runCount * OP_IDS_PER_RUN + 1,
        seed,
      });
    } catch (error) {
      runEnded();
      throw error;
    }
    void handle.done.finally(runEnded);
    // How long this run's processes wait for a CPU: a failure seen while the machine held them up is not the learner's.
    // The clients' worker thread too, in its sandbox host: with the nodes and the link process it runs below the server (ops/priority.ts).
    const cpuWait = new CpuWaitMeter(() => [...lab.nodes.map((n) => n.pid), linkProcessPid(), process.pid, handle.thread()]);
    const active = new ActiveRun(runId, clients, handle, checker, info);
    run = active;
    this.active = active;
    void handle.done.finally(() => admitted?.release());
    for (const { text, words } of request.notes) lab.history.append({ type: 'console', client: 0, level: 'warn', text, ...(words ? { words } : {}), runId });
    if (request.yieldable) this.yieldWhenAsked(active, admitted);
    const unsubscribe = this.judge(active, request.endWhenDecided);
    if (scenario) this.playScenarioFromFirstLine(active, scenario, plan, new Set([...armed, ...setup].map((a) => a.step)));
    this.emit('started', info);
    void handle.done.then((outcome) => {
      unsubscribe();
      this.finish(active, outcome, request.clientError, cpuWait.stop());
    });
    return info;
  }

  /** The nodes as the run asks: restored for a scenario, another topology or a fresh start. */
  private async prepareNodes({ scenario, topology, fresh }: AdmittedRun): Promise<void> {
    const lab = this.lab;
    const topologyDiffers =
      topology !== undefined &&
      (topology.kind !== lab.topology.kind || topology.nodes !== lab.topology.nodes || topology.persistence !== lab.topology.persistence);
    if (topologyDiffers || (fresh ?? (scenario !== undefined || topology !== undefined))) await lab.restore(topology ?? lab.topology);
  }

  /** Every link the clients may use listens before the first line of learner code runs: its port per `client:node`. */
  private async listenForClients(clients: number): Promise<Map<string, number>> {
    const lab = this.lab;
    if (clients > lab.clients) {
      lab.clients = clients;
      lab.emit('links');
    }
    const ports = new Map<string, number>();
    await Promise.all(
      lab.nodes.flatMap((node) =>
        Array.from({ length: clients }, async (_, i) => ports.set(`${i + 1}:${node.id}`, await lab.links.portFor(i + 1, node.id))),
      ),
    );
    return ports;
  }

  private newChecker(settings: RunStart['checker'], startedAt: number): IncrementalChecker {
    // Messages count from the run's start, like the run's timeline: "at 0.60 s" is the 0.6 s mark.
    const checker = new IncrementalChecker({ nodes: this.lab.nodes.length, ...settings, timeOrigin: startedAt });
    // What the checker must know of the world before the run: each node's latest state (a node killed by
    // hand before Run is down, and liveness must not expect it to answer). The history keeps these aside,
    // so they survive its budget evicting the events around them.
    checker.push(this.lab.history.latestNodeStates());
    return checker;
  }

  /** Plays the scenario's setup steps; what they recorded, for the checker (a cut link is part of the run's world). */
  private async playSetup(setup: ReturnType<typeof schedule>, runId: string): Promise<HistoryEvent[]> {
    const seen: HistoryEvent[] = [];
    const collect = this.lab.history.subscribe((event) => {
      if (event.runId === undefined || event.runId === runId) seen.push(event);
    });
    await playSetupSteps(this.lab, setup, runId).finally(collect);
    return seen;
  }

  /** One sandbox event into the lab's history; a run past its share of the history is cut. */
  private record(run: ActiveRun | undefined, runId: string, event: HistoryInput, clientError: AdmittedRun['clientError']): void {
    const history = this.lab.history;
    const shown = clientError && event.type === 'client' && event.event === 'error' && event.detail !== undefined ? { ...event, detail: clientError(event.detail) } : event;
    const recorded = history.append({ ...shown, runId });
    if (!run) return;
    const usage = history.runUsage(runId);
    if (usage.bytes > history.budget.runBytes || usage.events > history.budget.runEvents) this.cut(run, recorded, usage);
  }

  /**
   * A run past its share of the lab's history is stopped, and nothing more of it is recorded: its
   * clients may go on flooding for the few ms the stop takes to reach them (see history-cut.ts).
   */
  private cut(run: ActiveRun, last: HistoryEvent, usage: RunUsage): void {
    const lab = this.lab;
    const said = historyCutSaid(usage, lab.history.budget);
    run.cut = { message: said.message, words: said.words, t: last.t, seq: last.seq };
    refuse(
      'history-budget',
      { labId: lab.id, detail: { runId: run.runId, events: usage.events, bytes: usage.bytes, runEvents: lab.history.budget.runEvents, runBytes: lab.history.budget.runBytes } },
      said.message,
    );
    lab.history.append({ type: 'console', client: 0, level: 'error', text: said.message, words: said.words, runId: run.runId });
    run.scenario?.cancel();
    run.handle.stop();
  }

  /** Stopped, after its slice, for another browser's run waiting at a full server; its console says so. */
  private yieldWhenAsked(run: ActiveRun, admitted: Admitted | null): void {
    const lab = this.lab;
    admitted?.yieldable((ranMs) => {
      if (this.active !== run) return;
      const note = refuse('run-yielded', { labId: lab.id, detail: { runId: run.runId, ranMs: Math.round(ranMs) } }, refusal('run.yielded', { seconds: Math.round(ranMs / 1000) }));
      lab.history.append({ type: 'console', client: 0, level: 'warn', text: note.message, ...(note.words ? { words: note.words } : {}), runId: run.runId });
      run.yielded = note;
      run.scenario?.cancel();
      run.handle.stop();
    });
  }

  /** The checker reads this run's events, and the lab's node and nemesis events while it runs; returns the unsubscribe. */
  private judge(run: ActiveRun, endWhenDecided: boolean): () => void {
    return this.lab.history.subscribe((event) => {
      if (event.runId !== undefined && event.runId !== run.runId) return;
      run.observe(event);
      run.checker.push([event]);
      this.scheduleVerdict(run);
      if (endWhenDecided && run.decided === null && !run.cut) this.endIfDecided(run);
    });
  }

  /**
   * A run whose verdict can no longer change (the checker's `decided` says when, and why that never
   * fails a run that could still recover) ends now, not when its clients give up: the rest would be
   * the same failure again. Ended on the next turn, so every subscriber sees the event that decided it first.
   */
  private endIfDecided(run: ActiveRun): void {
    const reason = run.checker.decidedSaid();
    if (reason === null) return;
    run.decided = reason;
    queueMicrotask(() => {
      if (this.active !== run || run.cut) return;
      const note = say('runNotes.endedEarly', { reason: { words: reason.words } });
      this.lab.history.append({ type: 'console', client: 0, level: 'info', text: note.message, words: note.words, runId: run.runId });
      run.scenario?.cancel();
      run.handle.stop();
    });
  }

  /**
   * Step times count from the moment the program really starts (Client 1's first line), not from
   * the run's start: a worker may take a while to boot, and "pause Client 1 at 150 ms" means 150 ms into its program.
   */
  private playScenarioFromFirstLine(run: ActiveRun, scenario: NonNullable<RunStart['scenario']>, plan: ReturnType<typeof schedule>, delegated: ReadonlySet<ScenarioStep>): void {
    const lab = this.lab;
    const startScenario = lab.history.subscribe((event) => {
      if (event.type !== 'client' || event.runId !== run.runId || event.client !== 1 || event.event !== 'start') return;
      startScenario();
      if (this.active === run) run.scenario = runScenario(lab, scenario, { runId: run.runId, clients: run, origin: event.t, delegated, announced: true, plan });
    });
    void run.handle.done.then(startScenario);
  }

  /** The run's end: the final verdict (a cut run's says so), the outcome as the learner reads it, told to everyone. */
  private finish(run: ActiveRun, outcome: RunOutcome, clientError: AdmittedRun['clientError'], cpuWaitMs: RunEnded['cpuWaitMs']): void {
    run.scenario?.cancel({ runEnded: !run.cut });
    if (run.verdictTimer) clearTimeout(run.verdictTimer);
    const checked: Verdict = run.checker.verdict({ final: true });
    const verdict = run.cut ? cutVerdict(checked, run.cut) : checked;
    const shownOutcome = clientError ? { ...outcome, clients: outcome.clients.map((c) => (c.error === undefined ? c : { ...c, error: clientError(c.error) })) } : outcome;
    const ended: RunEnded = { runId: run.runId, outcome: endedOutcome(shownOutcome, run.cut, run.decided, run.yielded), verdict, cpuWaitMs };
    if (this.active === run) this.active = null;
    this.last = { info: run.info, ended };
    run.finish(ended);
    this.emit('ended', ended);
  }

  private scheduleVerdict(run: ActiveRun): void {
    if (run.verdictTimer) return;
    run.verdictTimer = setTimeout(() => {
      run.verdictTimer = null;
      if (this.active === run) this.emit('verdict', { runId: run.runId, verdict: run.checker.verdict() });
    }, VERDICT_INTERVAL_MS);
    run.verdictTimer.unref();
  }

  /** The learner's breakpoint on the run going on (null clears it); false when nothing runs. */
  setBreakpoint(when: Trigger | null): boolean {
    const run = this.active;
    if (!run) return false;
    run.handle.setBreakpoint(when);
    return true;
  }

  /** Continue (or Step) from the breakpoint the run stands at. */
  continueFromBreakpoint(step: boolean): void {
    const run = this.active;
    if (!run) throw new LabOperationError('conflict', refusal('run.notRunning'));
    run.handle.continueFromBreakpoint(step);
  }

  /** Stops the current run for good: no run starts here again (the lab was rebuilt for another page). */
  retire(): Promise<RunEnded | null> {
    this.retired = true;
    return this.stop();
  }

  private refuseIfRetired(): void {
    if (this.retired) throw new LabOperationError('conflict', refusal('run.left'));
  }

  /** Stops the current run (if any) and resolves with how it ended. */
  async stop(): Promise<RunEnded | null> {
    this.waitingFor?.abort();
    const run = this.active;
    if (!run) return null;
    run.scenario?.cancel();
    run.handle.stop();
    return run.finished;
  }
}

/**
 * A runtime error from a command the lab's state failed: the lab's sentence at the learner's line (what is
 * wrong — a node down, a link cut —, the command, its retries), read against the lab as it is now, with
 * ioredis's error named in it; any other diagnostic as it came.
 */
function inLearnerTerms(diagnostic: Diagnostic, lab: Lab): Diagnostic {
  const { failure, ...rest } = diagnostic;
  if (!failure || diagnostic.client === undefined) return diagnostic;
  const client = diagnostic.client;
  const node = lab.nodes.some((n) => n.id === failure.node) ? lab.nodeView(failure.node) : undefined;
  const link = lab.linkViews().find((l) => l.client === client && l.node === failure.node);
  const said = failureSaid(failure, client, diagnostic.line, { node, link });
  return { ...rest, message: said.message, words: said.words };
}

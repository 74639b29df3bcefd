/**
 * One run inside a worker: all of its clients, the fenced store and job
 * counters they share, the history buffer, and the end of the run. The worker
 * holds exactly one run and is thrown away afterwards, so hostile code can
 * only ever take down its own run.
 */
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import type { HistoryInput } from '@/lib/history';
import type { Trigger } from '@/lib/scenario';
import type { Said } from '@/lib/words';
import { transpileLearnerCode } from '../transpile';
import type { ResolvedTarget, RunSpec, WorkerToMain } from '../protocol';
import type { ClientOutcome, Diagnostic, RunStatus } from '../types';
import { ArmedFaults } from './armed-faults';
import { Breakpoint } from './breakpoint';
import { LIMIT_WORDS } from './limit-words';
import { boundEvent } from './bound-event';
import { defaultResolveNode } from '../hosts';
import { GuestClient, type RunServices } from './client';
import { ConnectionPlaces } from './connection-places';
import { ANY_ROOM, type DescriptorRoom } from './descriptor-room';
import { FencedStore } from './fenced-store';
import { Pacer } from './pacer';
import type { SliceMeter } from './slice-meter';

export class SandboxRun implements RunServices {
  readonly store = new FencedStore();
  readonly pacer = new Pacer();
  readonly connectionPlaces: ConnectionPlaces;
  readonly script: string;
  readonly headLength: number;
  readonly nodes: number[];
  private readonly clients: GuestClient[] = [];
  private readonly jobs = new Map<string, number>();
  private readonly startTimers: ReturnType<typeof setTimeout>[] = [];
  private opId: number;
  private buffer: HistoryInput[] = [];
  private flushScheduled = false;
  private finished = false;
  private armed: ArmedFaults | null = null;
  private breakpoint: Breakpoint | null = null;

  constructor(
    readonly spec: RunSpec,
    readonly quickjs: QuickJSWASMModule,
    readonly guestSources: ReadonlyArray<{ name: string; code: string }>,
    readonly meter: SliceMeter,
    private readonly post: (message: WorkerToMain) => void,
    /** The web server's reserve of descriptors (server/ops/descriptors.ts). */
    room: DescriptorRoom = ANY_ROOM,
  ) {
    this.opId = spec.opIdBase;
    this.pacer.setRate(spec.commandsPerSecondShare);
    this.connectionPlaces = new ConnectionPlaces(spec.limits, room);
    this.nodes = spec.nodes;
    const compiled = transpileLearnerCode(spec.code, spec.fileName);
    if (!compiled.ok) {
      this.script = '';
      this.headLength = 0;
      this.diagnostic(compiled.diagnostic);
      const { message, line } = compiled.diagnostic;
      this.finish('syntax-error', `${message} (line ${line})`);
      return;
    }
    this.script = compiled.script;
    this.headLength = compiled.headLength;
  }

  start(): void {
    if (this.finished) return;
    for (let id = 1; id <= this.spec.clients; id++) this.clients.push(new GuestClient(id, this));
    if (this.spec.armed.length > 0) {
      this.armed = new ArmedFaults(this.spec.armed, {
        now: () => this.now(),
        emit: (event) => this.emit(event),
        target: (id) => this.client(id),
      });
    }
    this.breakpoint = new Breakpoint(this.spec.breakpoint, {
      emit: (event) => this.emit(event),
      clients: () => this.clients,
      held: (on) => this.post({ type: 'held', on }),
    });
    for (const client of this.clients) {
      const delay = this.spec.startDelaysMs[client.id - 1] ?? 0;
      if (delay > 0) this.startTimers.push(setTimeout(() => client.start(), delay));
      else client.start();
    }
  }

  /** The learner's breakpoint, set or cleared while the run goes. */
  setBreakpoint(when: Trigger | null): void {
    this.breakpoint?.set(when);
  }

  /** Continue (or Step) from the breakpoint the run stands at. */
  continueFromBreakpoint(step: boolean): void {
    this.breakpoint?.continue(step);
  }

  client(id: number): GuestClient | undefined {
    return this.clients[id - 1];
  }

  /** Lab-clock time: the same origin as the main thread's history, computed here so no hop skews it. */
  now(): number {
    return performance.timeOrigin + performance.now() - this.spec.originEpochMs;
  }

  /** Every event of the run passes here: bounded now, so no learner-sized string ever leaves the worker. */
  emit(event: HistoryInput): void {
    const stamped = { ...event, runId: this.spec.runId, t: event.t ?? this.now() };
    this.buffer.push(boundEvent(stamped));
    // After the push: a step this event triggers is recorded after it, as it happened.
    this.armed?.observe(stamped);
    this.breakpoint?.observe(stamped);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.buffer.length === 0) return;
    const events = this.buffer;
    this.buffer = [];
    this.post({ type: 'events', events });
  }

  diagnostic(d: Diagnostic): void {
    this.post({ type: 'diagnostic', diagnostic: d });
  }

  nextOpId(): number {
    return this.opId++;
  }

  jobEnter(job: string): number {
    const n = (this.jobs.get(job) ?? 0) + 1;
    this.jobs.set(job, n);
    return n;
  }

  /** The node a learner's host and port name, and this client's link to it (hosts.ts has the naming rules). */
  resolve(client: number, host: string, port: number): ResolvedTarget {
    const node = defaultResolveNode(host, port, this.nodes);
    if (node === null) return { ok: false, code: 'ENOTFOUND' };
    const linkPort = this.spec.linkPorts[`${client}:${node}`];
    return linkPort === undefined ? { ok: false, code: 'ECONNREFUSED', node } : { ok: true, node, port: linkPort };
  }

  clientEnded(): void {
    if (this.clients.every((c) => c.status !== null)) {
      const timedOut = this.clients.some((c) => c.status === 'timeout');
      this.finish(timedOut ? 'timeout' : 'completed');
    }
  }

  limitBroken(offender: GuestClient, message: Said): void {
    const where = offender.limitLocation();
    const said = where ? LIMIT_WORDS.atLine(message, where.line) : message;
    offender.end('limit', said);
    this.diagnostic({ client: offender.id, severity: 'error', kind: 'limit', message: message.message, words: message.words, line: where?.line ?? 1, column: where?.column ?? 1 });
    this.endAll('stopped');
    this.finish('limit', said);
  }

  stop(): void {
    this.endAll('stopped');
    this.finish('stopped');
  }

  private endAll(status: 'stopped'): void {
    for (const t of this.startTimers) clearTimeout(t);
    for (const c of this.clients) c.end(status);
  }

  /** `error`: the compiler's words as they are, or the lab's own sentence (a limit) with its data. */
  private finish(status: RunStatus, error?: string | Said): void {
    if (this.finished) return;
    // A program that ran to its end without the moment a step waits for is told so; a stopped one is not.
    if (status === 'completed' || status === 'timeout') this.armed?.reportUnfired();
    this.armed?.stop();
    this.finished = true;
    for (const t of this.startTimers) clearTimeout(t);
    this.pacer.clear();
    for (const c of this.clients) c.cutStore();
    this.flush();
    const clients: ClientOutcome[] = this.clients.map((c) => {
      const outcome: ClientOutcome = { client: c.id, status: c.status ?? 'stopped' };
      if (c.error !== undefined) outcome.error = c.error;
      if (c.errorWords !== undefined) outcome.errorWords = c.errorWords;
      return outcome;
    });
    if (error === undefined) this.post({ type: 'done', status, clients });
    else if (typeof error === 'string') this.post({ type: 'done', status, error, clients });
    else this.post({ type: 'done', status, error: error.message, errorWords: error.words, clients });
  }
}

/**
 * Scenario steps that wait for a moment of the run and then act on one of
 * its clients ("when Client 1 enters its job, pause Client 1 for 3.5 s"),
 * carried out here, in the sandbox that runs the clients, instead of by the
 * lab server. The server would learn of the moment from the client's events
 * and answer with a pause message: two hops through its event loop, which on
 * a busy server can take longer than the window the step aims at. Here the
 * step sees the event as it is emitted, so "crash Client 2 as soon as its SET
 * is answered" lands before Client 2 reads the reply, however loaded the
 * machine.
 *
 * Each step is recorded as the server would record it: the scenario line, the
 * nemesis invoke and its ok (or fail), and the client's own pause/crash/skew.
 */
import { clientLabel } from '@/lib/cluster';
import { programFaultArgs, programFaultDone, programFaultRefusalWords, type ProgramFault } from '@/lib/faults/client-words';
import { atLabTime } from '@/lib/due-timer';
import type { HistoryEvent, HistoryInput } from '@/lib/history';
import type { Trigger } from '@/lib/scenario';
import { english } from '@/lib/checker/said';
import { TriggerWatch } from '@/lib/triggers';
import type { Words } from '@/lib/words';
import { faultWords, neverFiredWords } from '@/lib/scenario-words';

export interface ArmedFault {
  when: Trigger;
  /** ms after the trigger's event (the scenario's jitter already added). */
  at: number;
  fault: ProgramFault;
  /** The scenario's line for this step: its English and its words. */
  detail: string;
  detailWords: Words;
}

/** What the faults need of the run: its clients, its clock and its history. */
export interface ArmedFaultHost {
  now(): number;
  emit(event: HistoryInput): void;
  target(client: number): ArmedFaultTarget | undefined;
}

export interface ArmedFaultTarget {
  /** Null while the client runs. */
  readonly status: string | null;
  readonly isPaused: boolean;
  pause(ms?: number): void;
  resume(): void;
  end(status: 'crashed'): void;
  setSkew(skewMs: number): void;
}

export class ArmedFaults {
  private readonly waiting = new TriggerWatch<ArmedFault>();
  private readonly timers = new Set<{ cancel(): void }>();
  private stopped = false;

  constructor(
    armed: readonly ArmedFault[],
    private readonly host: ArmedFaultHost,
  ) {
    for (const a of armed) this.waiting.add(a, a.when, a.at);
  }

  /** Every event of the run, as it is emitted (with its time). */
  observe(event: HistoryInput & { t: number }): void {
    if (this.stopped || this.waiting.size === 0) return;
    for (const { item, due } of this.waiting.observe(event as HistoryEvent)) {
      // Due now: carried out before this event's consequences reach the client's code.
      if (this.host.now() >= due) this.fire(item);
      else {
        const timer = atLabTime(due, () => this.host.now(), () => {
          this.timers.delete(timer);
          this.fire(item);
        });
        this.timers.add(timer);
      }
    }
  }

  /** The run ended by itself: each step whose moment never came says so in the run's console. */
  reportUnfired(): void {
    for (const { item, when } of this.waiting.drain()) {
      const words = neverFiredWords(faultWords(item.fault.action, item.fault), when);
      this.host.emit({ type: 'console', client: 0, level: 'warn', text: english(words), words });
    }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) t.cancel();
    this.timers.clear();
  }

  private fire({ fault, detail, detailWords }: ArmedFault): void {
    if (this.stopped) return;
    const { emit } = this.host;
    const who = clientLabel(fault.client);
    const base = { type: 'nemesis', op: fault.action, target: who, client: fault.client, args: programFaultArgs(fault) } as const;
    emit({ type: 'scenario', step: fault.action, detail, detailWords });
    emit({ ...base, phase: 'invoke' });
    const target = this.host.target(fault.client);
    // The refusal with its words, as the server's nemesis records one: a page writes it in its language.
    const refused = programFaultRefusalWords(fault, target ? { ended: target.status !== null, paused: target.isPaused } : null);
    if (refused !== null) return emit({ ...base, phase: 'fail', detail: refused.message, detailWords: refused.words });
    if (!target) return; // refused above: a client that is not part of the run
    // Recorded before it is carried out, as the server records its own client faults (its ok comes before the
    // client's pause or crash event) — and because a crash may end the run, after which nothing more is sent.
    const done = programFaultDone(fault);
    emit({ ...base, phase: 'ok', detail: done.message, detailWords: done.words });
    switch (fault.action) {
      case 'client-pause':
        target.pause(fault.durationMs);
        break;
      case 'client-resume':
        target.resume();
        break;
      case 'client-crash':
        target.end('crashed');
        break;
      case 'client-skew':
        target.setSkew(fault.offsetMs);
        break;
    }
  }
}

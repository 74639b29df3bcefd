/**
 * "Pause the run when …": a breakpoint on the run's own events, watched here,
 * where the events are emitted, so the run stops at the moment itself and not
 * a hop through the server's loop later. When it fires every running client is
 * frozen at its gate, its clocks with it, as a suspended machine is: the
 * nodes and their clocks go on, so a lock's TTL keeps running out while the
 * learner injects faults, and a client let go carries on as if no time had
 * passed. A client in a timed pause is frozen with the rest: its pause is
 * its own time, so what was left of it goes on after the thaw. Continue
 * opens the gates it closed (never a client the learner paused by hand);
 * Step continues and stops again at the next answered command.
 */
import type { HistoryEvent, HistoryInput } from '@/lib/history';
import type { Trigger } from '@/lib/scenario';
import { say } from '@/lib/checker/said';
import { triggerWords } from '@/lib/scenario-words';
import { TriggerWatch } from '@/lib/triggers';

/** Step: the next command of any client answered. */
export const STEP_TRIGGER: Trigger = { on: 'command-answered', command: '*', nth: 1 };

export interface BreakpointClient {
  readonly id: number;
  readonly status: string | null;
  /** Paused by the learner until Resume: left as it is (a timed pause is frozen with the rest, and its remainder kept). */
  readonly pausedByHand: boolean;
  /** Frozen (on) or thawed: its code, its clocks and its wall-clock limit stand still while frozen. */
  freeze(on: boolean): void;
}

export interface BreakpointHost {
  emit(event: HistoryInput): void;
  clients(): readonly BreakpointClient[];
  /** The run is held (its wall clock stops counting) while it stands at a breakpoint. */
  held(on: boolean): void;
}

export class Breakpoint {
  private watch: TriggerWatch<Trigger> | null = null;
  /** The learner's breakpoint, armed again after each Continue (a Step's is one-off). */
  private when: Trigger | null = null;
  /** Clients this breakpoint froze: only they are let go on Continue. */
  private frozen: BreakpointClient[] = [];

  constructor(
    when: Trigger | null,
    private readonly host: BreakpointHost,
  ) {
    this.set(when);
  }

  get stopped(): boolean {
    return this.frozen.length > 0;
  }

  /** A new breakpoint (null: none); one already hit stays hit until Continue. */
  set(when: Trigger | null): void {
    this.when = when;
    if (!this.stopped) this.arm(when);
  }

  observe(event: HistoryInput & { t: number }): void {
    if (!this.watch || this.stopped) return;
    const due = this.watch.observe(event as HistoryEvent);
    if (due.length === 0) return;
    this.watch = null;
    this.stop(due[0]!.item);
  }

  /** Lets the frozen clients go; with `step`, stops again at the next answered command. */
  continue(step: boolean): void {
    if (!this.stopped) return;
    const frozen = this.frozen;
    this.frozen = [];
    this.arm(step ? STEP_TRIGGER : this.when);
    const note = say(step ? 'runNotes.breakpointStep' : 'runNotes.breakpointContinue');
    this.host.emit({ type: 'console', client: 0, level: 'info', text: note.message, words: note.words });
    this.host.held(false);
    for (const client of frozen) client.freeze(false);
  }

  private arm(when: Trigger | null): void {
    if (!when) {
      this.watch = null;
      return;
    }
    this.watch = new TriggerWatch<Trigger>();
    this.watch.add(when, when, 0);
  }

  private stop(when: Trigger): void {
    const running = this.host.clients().filter((c) => c.status === null && !c.pausedByHand);
    if (running.length === 0) {
      // Nothing left to freeze (every client ended or is paused by hand): armed again, nothing said.
      this.arm(this.when);
      return;
    }
    const moment = { words: triggerWords(when) };
    const note = say('runNotes.breakpointHit', { moment });
    const mark = say('runNotes.breakpointMark', { moment });
    // Marked on the timeline as the scenario's steps are, in the page's language; the note says the rest.
    this.host.emit({ type: 'scenario', step: 'breakpoint', detail: mark.message, detailWords: mark.words });
    this.host.emit({ type: 'console', client: 0, level: 'info', text: note.message, words: note.words });
    this.frozen = running;
    this.host.held(true);
    for (const client of running) client.freeze(true);
  }
}

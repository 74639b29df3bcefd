/**
 * Admission of learner runs to the machine: a server-wide memory budget for
 * everything runs can hold (each client's QuickJS heap at its cap, plus the
 * worker's own heap) and a bound on how many run at once, with a first come,
 * first served queue for the rest. Two cores cannot run sixty programs at
 * once and keep any lesson's millisecond timing, so a class pressing Run
 * together gets served in turn, each told how many programs are ahead; a run
 * that would never fit, or a queue that is full, is refused in words.
 */
import { LabOperationError } from '@/lib/result';
import { refuse, type RefusalContext } from '../ops/refusals';
import { refusal } from '@/lib/refusal-words';

export interface RunAdmissionOptions {
  /** Bytes all admitted runs may reserve together. */
  memoryBudgetBytes: number;
  /** Runs admitted at once. */
  maxConcurrent: number;
  /** Runs that may wait; the next is refused. */
  maxQueued: number;
  /** How long a run may wait before it is refused. */
  maxWaitMs: number;
}

export interface Admitted {
  /** Gives the run's reservation back (idempotent). */
  release(): void;
}

interface Waiter {
  cost: number;
  context: RefusalContext;
  admit: (admitted: Admitted) => void;
  reject: (error: Error) => void;
  onAhead?: (ahead: number) => void;
  timer: NodeJS.Timeout;
}

const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20);

export class RunAdmission {
  private reserved = 0;
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly options: RunAdmissionOptions) {}

  get active(): number {
    return this.running;
  }
  get waiting(): number {
    return this.queue.length;
  }
  get reservedBytes(): number {
    return this.reserved;
  }

  /**
   * Resolves once the run may start, with its reservation; `onAhead` hears how many runs are ahead
   * while it waits. Rejects (with the learner's words) when it can never fit, the queue is full, or it
   * waited too long; and when `signal` aborts (the learner pressed Run again or Stop).
   */
  admit(cost: number, context: RefusalContext, onAhead?: (ahead: number) => void, signal?: AbortSignal): Promise<Admitted> {
    const { memoryBudgetBytes, maxQueued, maxWaitMs } = this.options;
    if (cost > memoryBudgetBytes)
      return Promise.reject(
        refuse('run-budget', { ...context, detail: { cost } }, refusal('run.budget', { cost: megabytes(cost), budget: megabytes(memoryBudgetBytes) })),
      );
    if (this.queue.length === 0 && this.fits(cost)) return Promise.resolve(this.take(cost));
    if (this.queue.length >= maxQueued)
      return Promise.reject(
        refuse('run-queue-full', { ...context, detail: { queued: this.queue.length } }, refusal('run.queueFull', { n: this.queue.length })),
      );
    return new Promise<Admitted>((resolve, reject) => {
      const waiter: Waiter = {
        cost,
        context,
        admit: resolve,
        reject,
        onAhead,
        timer: setTimeout(() => {
          this.remove(waiter);
          reject(refuse('run-budget', { ...context, detail: { waitedMs: maxWaitMs } }, refusal('run.waitedTooLong', { seconds: Math.round(maxWaitMs / 1000) })));
        }, maxWaitMs),
      };
      waiter.timer.unref();
      signal?.addEventListener('abort', () => {
        if (this.remove(waiter)) reject(new LabOperationError('conflict', refusal('run.replaced')));
      });
      this.queue.push(waiter);
      onAhead?.(this.queue.length - 1 + this.running);
    });
  }

  private fits(cost: number): boolean {
    return this.running < this.options.maxConcurrent && this.reserved + cost <= this.options.memoryBudgetBytes;
  }

  private take(cost: number): Admitted {
    this.reserved += cost;
    this.running++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.reserved -= cost;
        this.running--;
        this.pump();
      },
    };
  }

  private remove(waiter: Waiter): boolean {
    const index = this.queue.indexOf(waiter);
    if (index < 0) return false;
    this.queue.splice(index, 1);
    clearTimeout(waiter.timer);
    this.announce();
    return true;
  }

  /** Admits waiters in order while the head fits: no run overtakes an earlier one, so none starves. */
  private pump(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0]!.cost)) {
      const waiter = this.queue.shift()!;
      clearTimeout(waiter.timer);
      waiter.admit(this.take(waiter.cost));
    }
    this.announce();
  }

  private announce(): void {
    this.queue.forEach((waiter, i) => waiter.onAhead?.(i + this.running));
  }
}

/**
 * One client's connection to the run's fenced store (fenced-store.ts), which
 * stands for a remote service: a request travels to the store for a latency
 * drawn from the client's seeded stream (client-random.ts), takes effect
 * there when it arrives — a write is recorded in the history at that moment,
 * a read sees the store as it is then — and its answer travels back for
 * another such latency. So a read-then-write without a lock can race, as it
 * would against a real store, and the same seed draws the same latencies.
 *
 * The answer is a request result like a Redis reply (requests.ts): it reaches
 * the guest through the client's inbox and gate, so a paused client's request
 * still arrives (it was on the wire) and its answer waits for the resume.
 */
import type { Said } from '@/lib/words';
import type { HistoryInput } from '@/lib/history';
import type { Random } from '@/lib/random';
import type { CommandResult } from './connection';
import type { FencedStore } from './fenced-store';
import { LatencyLine } from './latency-line';
import { LIMIT_WORDS } from './limit-words';

/** One way, in ms: a store in the same data centre, with some jitter. */
export const STORE_LATENCY_MS = { min: 3, max: 25 } as const;

export interface StoreWireDeps {
  readonly client: number;
  readonly runId: string;
  readonly store: FencedStore;
  /** The client's latency stream. */
  readonly latency: Random;
  /** Store calls this client may have in flight (SandboxLimits.storeCallsInFlight). */
  readonly maxInFlight: number;
  emit(event: HistoryInput): void;
  /** The client asked for more than `maxInFlight` at once: it ends, with these words. */
  overLimit(message: Said): void;
}

export interface StoreWritePayload {
  key: string;
  value: string;
  token: number | null;
}

export class StoreWire {
  private readonly out = new LatencyLine();
  private readonly back = new LatencyLine();
  private inFlight = 0;

  constructor(private readonly deps: StoreWireDeps) {}

  /** Resolves with the token (or null) once accepted; a fenced-off write answers the EFENCED error. */
  write(p: StoreWritePayload): Promise<CommandResult> {
    const key = String(p.key);
    const value = String(p.value);
    const token = p.token === null || p.token === undefined ? null : Number(p.token);
    return this.call(() => {
      const { store, client, runId, emit } = this.deps;
      const r = store.write(key, value, token);
      emit({ type: 'store', client, key, value, token, accepted: r.accepted, highest: r.highest, runId, ...(r.reason ? { reason: r.reason } : {}) });
      return r.accepted ? { ok: true, value: token } : { ok: false, error: { name: 'Error', message: r.reason ?? 'fenced', code: 'EFENCED' } };
    });
  }

  /** Resolves with the value the store held when the read arrived, or null. */
  read(key: string): Promise<CommandResult> {
    const k = String(key);
    return this.call(() => ({ ok: true, value: this.deps.store.read(k) }));
  }

  /** The run ended: what is still on the wire never arrives, and no answer comes back. */
  cut(): void {
    this.out.cut();
    this.back.cut();
  }

  private call(atStore: () => CommandResult): Promise<CommandResult> {
    if (this.inFlight >= this.deps.maxInFlight) {
      this.deps.overLimit(LIMIT_WORDS.storeInFlight(this.deps.client, this.deps.maxInFlight));
      // The client is ending: this answer is never delivered.
      return new Promise(() => undefined);
    }
    this.inFlight += 1;
    return new Promise((resolve) => {
      this.out.send(this.draw(), () => {
        const result = atStore();
        this.back.send(this.draw(), () => {
          this.inFlight -= 1;
          resolve(result);
        });
      });
    });
  }

  private draw(): number {
    const { min, max } = STORE_LATENCY_MS;
    return min + Math.floor(this.deps.latency() * (max - min + 1));
  }
}

/**
 * A client's randomness, drawn from the run's seed, so a seed replays a run:
 * the learner's Math.random(), crypto's randomUUID / randomBytes / randomInt,
 * and the latency of its store calls (store-wire.ts).
 *
 * Each purpose has its own stream, derived from (seed, client, purpose): a
 * program that adds a store call or a UUID does not shift the Math.random()
 * values it prints, and two clients never share a sequence.
 */
import { deriveSeed, seededRandom, type Random } from '@/lib/random';

/** The purposes' numbers in the derivation; fixed, or old seeds stop replaying. */
const STREAM = { math: 1, crypto: 2, latency: 3 } as const;

/** Math.random() values handed to the guest per host call: one crossing serves many calls. */
export const MATH_BATCH_MAX = 256;

export class ClientRandom {
  private readonly mathStream: Random;
  private readonly cryptoStream: Random;
  /** The store's latencies (store-wire.ts). */
  readonly latency: Random;

  constructor(seed: number, client: number) {
    this.mathStream = seededRandom(deriveSeed(seed, client, STREAM.math));
    this.cryptoStream = seededRandom(deriveSeed(seed, client, STREAM.crypto));
    this.latency = seededRandom(deriveSeed(seed, client, STREAM.latency));
  }

  /** The next `n` values of Math.random() (the guest buffers them). */
  math(n: number): number[] {
    const count = Math.max(1, Math.min(MATH_BATCH_MAX, Math.floor(Number(n)) || 1));
    return Array.from({ length: count }, () => this.mathStream());
  }

  /** `n` bytes as hex, like randomBytes(n).toString('hex'). */
  hex(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += this.byte().toString(16).padStart(2, '0');
    return out;
  }

  /** A version 4 UUID (RFC 4122): 122 random bits, the version and variant fixed. */
  uuid(): string {
    const b = Array.from({ length: 16 }, () => this.byte());
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** An integer in [min, max), with Node's checks and words (crypto.randomInt). */
  int(min: number, max: number): number {
    if (!Number.isSafeInteger(min)) throw new RangeError(`The "min" argument must be a safe integer. Received ${String(min)}`);
    if (!Number.isSafeInteger(max)) throw new RangeError(`The "max" argument must be a safe integer. Received ${String(max)}`);
    if (max <= min) throw new RangeError(`The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
    const range = max - min;
    if (range > 2 ** 48) throw new RangeError(`The value of "max - min" is out of range. It must be <= 281474976710655. Received ${range}`);
    // One draw has 32 bits; a wider range takes a second one for the low bits.
    const r = range <= 2 ** 32 ? this.cryptoStream() : this.cryptoStream() + this.cryptoStream() / 2 ** 32;
    return min + Math.min(range - 1, Math.floor(r * range));
  }

  private byte(): number {
    return Math.floor(this.cryptoStream() * 256);
  }
}

/**
 * Watches one node's keys: a keyspace-notification subscription says *that*
 * something changed (within a millisecond; bounded per node, since learners'
 * writes make them: keyspace-subscriber.ts), a Lua sample says *what* (every
 * key's value and PTTL in one round trip). Timed samples catch what
 * notifications do not show (a TTL that reached zero before Redis expired the
 * key, a second the subscription was muted):
 *
 * - while a run goes in the lab (`node.busy`), every PERIOD_MS, as exact as
 *   the timeline's expiries and TTL views need;
 * - while the lab is idle, no learner can write (its run closed its
 *   connections: node-guard.ts), so the only change no notification announces
 *   is a key reaching its TTL: one sample just after the earliest expiry the
 *   last sample showed, and a slow safety net (IDLE_SAFETY_MS) for a
 *   notification lost while the subscription was closed or muted. An idle
 *   lab's nodes cost no script at all between those (100 idle labs sampled
 *   every 250 ms were 2,000 scripts a second).
 *
 * A change of rhythm samples at once. Sampling stops while the node is
 * paused or down.
 */
import type { Redis } from 'ioredis';
import type { LockKeyView } from '@/lib/cluster';
import type { NodeCredentials } from './redis-config';
import type { RedisNode } from './redis-node';
import { KeyspaceSubscriber, type NotificationCounts } from './keyspace-subscriber';
import { SampleBudget } from './sample-budget';

/** Every key with its value (strings; other types by name) and PTTL, sorted, capped. */
const SAMPLE_SCRIPT = `
local keys = redis.call('KEYS', '*')
table.sort(keys)
local limit = tonumber(ARGV[1])
local out = {}
for i = 1, math.min(#keys, limit) do
  local k = keys[i]
  local t = redis.call('TYPE', k)['ok']
  local v
  if t == 'string' then v = string.sub(redis.call('GET', k), 1, 200) else v = '<' .. t .. '>' end
  out[#out + 1] = { k, v, redis.call('PTTL', k) }
end
return { #keys, out }
`;

interface SampleCommand {
  locklabSample(limit: number): Promise<unknown>;
}

/** Teaches a control connection the sample script as a command, so it travels as EVALSHA. */
export function defineSampleCommand(client: Redis): void {
  if (!('locklabSample' in client)) client.defineCommand('locklabSample', { numberOfKeys: 0, lua: SAMPLE_SCRIPT });
}

export const KEY_LIMIT = 50;
/** While a run goes: a sample this often, whatever notifications say. */
const PERIOD_MS = 250;
/** While the lab is idle: a sample at least this often (a notification lost while the subscription was closed or muted). */
export const IDLE_SAFETY_MS = 5_000;
/**
 * While the lab is idle, the sample after a key's expiry comes this long after
 * it (timers never fire early, but the sample's PTTL is rounded down to the
 * ms). The node may expire the key up to a second late at IDLE_HZ; the sample
 * script's KEYS already hides a key past its expiry.
 */
const EXPIRY_SLACK_MS = 5;
/**
 * At most one sample per node this often. A learner's busy loop changes keys
 * thousands of times a second; sampling after every change kept the server's
 * one event loop busy writing scripts to every node (a quarter of its time
 * with 20 busy labs) while viewers only see pushes ≥ 10 ms apart anyway. The
 * first change after a quiet spell is still sampled at once.
 */
export const MIN_SAMPLE_GAP_MS = 40;
/** Samples per second for every node of every lab in this process together (see sample-budget.ts). */
export const SAMPLES_PER_SECOND = 500;
const sharedBudget = new SampleBudget(SAMPLES_PER_SECOND, MIN_SAMPLE_GAP_MS);
/** A TTL that moved this much more than elapsed time did was changed (extended, jumped). */
const TTL_TOLERANCE_MS = 30;
/** A subscription the node closed (its output limit for a subscriber that fell behind) is opened again after this. */
const RESUBSCRIBE_MS = 1_000;

export interface KeySample {
  keys: LockKeyView[];
  truncated: boolean;
}

export class NodeMonitor {
  private subscriber: KeyspaceSubscriber | null = null;
  private resubscribeTimer: NodeJS.Timeout | null = null;
  /** Notifications this node sent, the wakes they made, the seconds it was muted (keyspace-subscriber.ts). */
  readonly notifications: NotificationCounts = { received: 0, wakes: 0, mutes: 0 };
  /** The timed sample: an interval while a run goes, a timeout rescheduled after every sample while idle. */
  private timer: NodeJS.Timeout | null = null;
  /** The node is up and watched (not paused, down or disposed). */
  private sampling = false;
  private inFlight = false;
  private again = false;
  /** Lab-clock time the last sample started; the next waits until MIN_SAMPLE_GAP_MS after it. */
  private lastStartedAt = -Infinity;
  private gapTimer: NodeJS.Timeout | null = null;
  private last: KeySample = { keys: [], truncated: false };
  private disposed = false;

  constructor(
    private readonly node: RedisNode,
    private readonly credentials: NodeCredentials,
    private readonly clock: () => number,
    private readonly onChange: (sample: KeySample) => void,
    private readonly budget: SampleBudget = sharedBudget,
  ) {
    node.on('started', () => this.attach());
    node.on('state', ({ state }) => {
      if (state === 'up') this.startSampling();
      else this.stopSampling();
      if (state === 'down') {
        this.detach();
        this.publish({ keys: [], truncated: false });
      }
    });
    node.on('busy', () => this.rhythmChanged());
  }

  get current(): KeySample {
    return this.last;
  }

  private attach(): void {
    if (this.disposed) return;
    this.detach();
    this.subscriber = new KeyspaceSubscriber({
      port: this.node.port,
      username: this.credentials.control.username,
      password: this.credentials.control.password,
      counts: this.notifications,
      onWake: () => this.sampleSoon(),
      onClosed: () => this.subscriptionLost(),
    });
    this.startSampling();
    this.sampleSoon();
  }

  /** The node closed the subscription while it is up (it fell behind Redis's limit): open it again shortly. */
  private subscriptionLost(): void {
    this.subscriber = null;
    if (this.disposed || this.node.state === 'down' || this.resubscribeTimer) return;
    this.resubscribeTimer = setTimeout(() => {
      this.resubscribeTimer = null;
      if (!this.subscriber && this.node.state !== 'down') this.attach();
    }, RESUBSCRIBE_MS);
    this.resubscribeTimer.unref();
  }

  private detach(): void {
    if (this.resubscribeTimer) clearTimeout(this.resubscribeTimer);
    this.resubscribeTimer = null;
    this.subscriber?.close();
    this.subscriber = null;
  }

  private startSampling(): void {
    if (this.sampling || this.disposed) return;
    this.sampling = true;
    this.schedule();
  }

  private stopSampling(): void {
    this.sampling = false;
    this.clearTimer();
    this.budget.forget(this);
  }

  /** A run started or the last one ended: a sample now, then the other rhythm. */
  private rhythmChanged(): void {
    if (!this.sampling || this.disposed) return;
    this.schedule();
    this.sampleSoon();
  }

  /** Busy: every PERIOD_MS. Idle: once, when the last sample says something can change unannounced. */
  private schedule(): void {
    this.clearTimer();
    if (!this.sampling || this.disposed) return;
    if (this.node.busy) {
      this.timer = setInterval(() => this.sampleSoon(), PERIOD_MS);
    } else {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.sampleSoon();
      }, this.idleWait());
    }
    this.timer.unref();
  }

  /** Until just after the earliest expiry the last sample showed, or the safety net, whichever is first. */
  private idleWait(): number {
    const now = this.clock();
    let due = now + IDLE_SAFETY_MS;
    for (const key of this.last.keys) {
      if (key.pttl >= 0) due = Math.min(due, key.sampledAt + key.pttl + EXPIRY_SLACK_MS);
    }
    return Math.max(0, due - now);
  }

  private clearTimer(): void {
    // clearTimeout clears an interval too (one kind of timer in Node).
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Coalesces bursts: at most one sample in flight, one more queued, and none sooner than MIN_SAMPLE_GAP_MS after the last. */
  sampleSoon(): void {
    if (this.disposed) return;
    if (this.inFlight || this.gapTimer) {
      this.again ||= this.inFlight;
      return;
    }
    const wait = this.lastStartedAt + this.budget.gapMs() - this.clock();
    if (wait > 0) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = null;
        this.sampleSoon();
      }, wait);
      this.gapTimer.unref();
      return;
    }
    this.inFlight = true;
    this.lastStartedAt = this.clock();
    this.budget.sampled(this);
    void this.sample().finally(() => {
      this.inFlight = false;
      if (this.again) {
        this.again = false;
        this.sampleSoon();
      }
    });
  }

  /** Reads the node's keys now (also used by tests and by nemesis ops that want a fresh view). */
  async sample(): Promise<KeySample | null> {
    try {
      return await this.read();
    } finally {
      // Idle, the next timed sample follows from this one (what it showed, or the safety net when it failed).
      if (!this.node.busy) this.schedule();
    }
  }

  private async read(): Promise<KeySample | null> {
    const client = this.node.controlClient;
    if (!client) return null;
    let raw: unknown;
    try {
      defineSampleCommand(client);
      // EVALSHA after the first call (ioredis falls back to EVAL when the node forgot the script, e.g. after a restart).
      raw = await (client as Redis & SampleCommand).locklabSample(KEY_LIMIT);
    } catch {
      return null; // paused, dying or busy with a learner's script: keep the last view
    }
    if (this.node.state !== 'up') return null;
    this.node.answered();
    const sampledAt = this.clock();
    const [total, rows] = raw as [number, [string, string, number][]];
    const sample: KeySample = {
      keys: rows.map(([key, value, pttl]) => ({ key, value, pttl: Number(pttl), sampledAt })),
      truncated: total > rows.length,
    };
    this.publish(sample);
    return sample;
  }

  private publish(sample: KeySample): void {
    if (this.disposed || !changed(this.last, sample)) {
      // Keep the freshest timestamps even when nothing a viewer would notice changed.
      if (!this.disposed) this.last = sample;
      return;
    }
    this.last = sample;
    this.onChange(sample);
  }

  dispose(): void {
    this.disposed = true;
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.gapTimer = null;
    this.stopSampling();
    this.detach();
  }
}

/** True when a viewer counting TTLs down from the previous sample would now be wrong. */
export function changed(before: KeySample, after: KeySample): boolean {
  if (before.truncated !== after.truncated || before.keys.length !== after.keys.length) return true;
  for (let i = 0; i < after.keys.length; i++) {
    const a = before.keys[i]!;
    const b = after.keys[i]!;
    if (a.key !== b.key || a.value !== b.value) return true;
    if ((a.pttl < 0) !== (b.pttl < 0)) return true;
    if (a.pttl >= 0) {
      const expected = a.pttl - (b.sampledAt - a.sampledAt);
      if (Math.abs(expected - b.pttl) > TTL_TOLERANCE_MS) return true;
    }
  }
  return false;
}

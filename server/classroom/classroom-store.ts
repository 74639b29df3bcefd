/**
 * Where classrooms are written down so any server can find them: the record
 * (code → owner server, lab, name, times, follow, last demo, since when the
 * instructor is away), the roster, and the seats. A seat belongs to a
 * browser (its identity cookie): each browser is one learner however many
 * tabs or sockets it opens, the class holds at most `cap` seated learners,
 * and a learner the instructor removed gives up their seat and their
 * browser may not take one again until the instructor allows it back.
 * In memory on a single server; in the coordination Redis with several, where
 * every key expires after the idle period unless the classroom is active, so a
 * classroom whose server died does not linger.
 */
import type { Redis } from 'ioredis';
import type { ClassroomDemoStarted, ClassroomFollow, RosterEntry } from '@/lib/classroom';

export interface ClassroomRecord {
  code: string;
  name: string;
  /** The server that runs the classroom's lab. */
  ownerId: string;
  labId: string;
  createdAt: number;
  lastActiveAt: number;
  follow: ClassroomFollow | null;
  demo: ClassroomDemoStarted | null;
  /** When the instructor's last tab left (epoch ms); null while an instructor is in the class. */
  instructorAwaySince: number | null;
}

/**
 * What asking for a seat came to: `added` (a new learner, `entry` written), `held` (this browser already is a
 * learner of the class: that learner), `back` (allowed back after a removal: seated again), `removed` (the
 * instructor removed this browser's learner), `full` (every seat is taken), `gone` (no such classroom).
 */
export type SeatOutcome = { kind: 'added' | 'held' | 'back'; learnerId: string } | { kind: 'removed' } | { kind: 'full' } | { kind: 'gone' };

type RecordPatch = Partial<Pick<ClassroomRecord, 'lastActiveAt' | 'follow' | 'demo' | 'instructorAwaySince'>>;

export interface ClassroomStore {
  create(record: ClassroomRecord): Promise<void>;
  get(code: string): Promise<ClassroomRecord | null>;
  /** Merges `patch` into the record and keeps it alive; false if the classroom is gone. */
  update(code: string, patch: RecordPatch): Promise<boolean>;
  /**
   * A seat for `browser`: its learner if it has one, else a new learner `entry` while fewer than `cap` are seated.
   * Atomic, so two servers cannot both hand out the last seat, nor two tabs of one browser take two.
   */
  takeSeat(code: string, browser: string, entry: RosterEntry, cap: number): Promise<SeatOutcome>;
  /** Frees the learner's seat and bars their browser from taking one again; false if there is no such learner. */
  removeLearner(code: string, learnerId: string): Promise<boolean>;
  /** Lifts a removal (the learner takes a seat again when they join); false if there is no such learner. */
  readmitLearner(code: string, learnerId: string): Promise<boolean>;
  /** Applies `change` to a learner's entry; null if there is no such learner (or classroom). */
  updateLearner(code: string, learnerId: string, change: (entry: RosterEntry) => RosterEntry): Promise<RosterEntry | null>;
  getLearner(code: string, learnerId: string): Promise<RosterEntry | null>;
  roster(code: string): Promise<RosterEntry[]>;
  delete(code: string): Promise<void>;
  close(): Promise<void>;
}

interface MemorySeats {
  /** Every learner who ever joined: browser → learnerId, and back. */
  learnerOf: Map<string, string>;
  browserOf: Map<string, string>;
  seated: Set<string>;
  removed: Set<string>;
}

export class MemoryClassroomStore implements ClassroomStore {
  private readonly records = new Map<string, ClassroomRecord>();
  private readonly rosters = new Map<string, Map<string, RosterEntry>>();
  private readonly seats = new Map<string, MemorySeats>();

  async create(record: ClassroomRecord): Promise<void> {
    this.records.set(record.code, { ...record });
    this.rosters.set(record.code, new Map());
    this.seats.set(record.code, { learnerOf: new Map(), browserOf: new Map(), seated: new Set(), removed: new Set() });
  }
  async get(code: string): Promise<ClassroomRecord | null> {
    const record = this.records.get(code);
    return record ? { ...record } : null;
  }
  async update(code: string, patch: RecordPatch): Promise<boolean> {
    const record = this.records.get(code);
    if (!record) return false;
    Object.assign(record, patch);
    return true;
  }
  async takeSeat(code: string, browser: string, entry: RosterEntry, cap: number): Promise<SeatOutcome> {
    const roster = this.rosters.get(code);
    const seats = this.seats.get(code);
    if (!roster || !seats) return { kind: 'gone' };
    const known = seats.learnerOf.get(browser);
    if (known !== undefined) {
      if (seats.removed.has(known)) return { kind: 'removed' };
      if (seats.seated.has(known)) return { kind: 'held', learnerId: known };
      if (seats.seated.size >= cap) return { kind: 'full' };
      seats.seated.add(known);
      return { kind: 'back', learnerId: known };
    }
    if (seats.seated.size >= cap) return { kind: 'full' };
    seats.learnerOf.set(browser, entry.learnerId);
    seats.browserOf.set(entry.learnerId, browser);
    seats.seated.add(entry.learnerId);
    roster.set(entry.learnerId, entry);
    return { kind: 'added', learnerId: entry.learnerId };
  }
  async removeLearner(code: string, learnerId: string): Promise<boolean> {
    const seats = this.seats.get(code);
    if (!seats?.browserOf.has(learnerId)) return false;
    seats.seated.delete(learnerId);
    seats.removed.add(learnerId);
    return true;
  }
  async readmitLearner(code: string, learnerId: string): Promise<boolean> {
    const seats = this.seats.get(code);
    if (!seats?.browserOf.has(learnerId)) return false;
    seats.removed.delete(learnerId);
    return true;
  }
  async updateLearner(code: string, learnerId: string, change: (entry: RosterEntry) => RosterEntry): Promise<RosterEntry | null> {
    const entry = this.rosters.get(code)?.get(learnerId);
    if (!entry) return null;
    const next = change(entry);
    this.rosters.get(code)?.set(learnerId, next);
    return next;
  }
  async getLearner(code: string, learnerId: string): Promise<RosterEntry | null> {
    return this.rosters.get(code)?.get(learnerId) ?? null;
  }
  async roster(code: string): Promise<RosterEntry[]> {
    return [...(this.rosters.get(code)?.values() ?? [])];
  }
  async delete(code: string): Promise<void> {
    this.records.delete(code);
    this.rosters.delete(code);
    this.seats.delete(code);
  }
  async close(): Promise<void> {}
}

const recordKey = (code: string) => `locklab:classroom:${code}`;
/**
 * A classroom's keys besides its record, each `<record key>:<suffix>`: roster (learnerId → entry JSON), learners
 * (browser → learnerId, everyone who ever joined), browsers (learnerId → browser), seated and removed (sets of
 * learnerIds). They live and expire with the record.
 */
const PARTS = ['roster', 'learners', 'browsers', 'seated', 'removed'] as const;
const partKey = (code: string, part: (typeof PARTS)[number]) => `${recordKey(code)}:${part}`;
const allKeys = (code: string) => [recordKey(code), ...PARTS.map((part) => partKey(code, part))];

/** Renews every key of a classroom (KEYS[1] is its record), ARGV[ttl] ms. */
const RENEW = (ttlArg: string) => `
for _, part in ipairs({${PARTS.map((p) => `'${p}'`).join(', ')}}) do redis.call('PEXPIRE', KEYS[1] .. ':' .. part, ${ttlArg}) end`;

/**
 * KEYS: record, roster, learners, browsers, seated, removed. ARGV: browser, new learnerId, its entry JSON, cap, ttl ms.
 * One round trip, so two servers cannot both hand out the last seat, nor two tabs of one browser take two.
 */
const TAKE_SEAT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
local known = redis.call('HGET', KEYS[3], ARGV[1])
if known then
  if redis.call('SISMEMBER', KEYS[6], known) == 1 then return {'removed'} end
  if redis.call('SISMEMBER', KEYS[5], known) == 1 then return {'held', known} end
  if redis.call('SCARD', KEYS[5]) >= tonumber(ARGV[4]) then return {'full'} end
  redis.call('SADD', KEYS[5], known)
  return {'back', known}
end
if redis.call('SCARD', KEYS[5]) >= tonumber(ARGV[4]) then return {'full'} end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[4], ARGV[2], ARGV[1])
redis.call('SADD', KEYS[5], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
${RENEW('ARGV[5]')}
return {'added', ARGV[2]}`;

/** KEYS: record. ARGV: learnerId, 'remove' or 'readmit'. */
const SET_REMOVED = `
if redis.call('HEXISTS', KEYS[1] .. ':browsers', ARGV[1]) == 0 then return 0 end
if ARGV[2] == 'remove' then
  redis.call('SREM', KEYS[1] .. ':seated', ARGV[1])
  redis.call('SADD', KEYS[1] .. ':removed', ARGV[1])
else
  redis.call('SREM', KEYS[1] .. ':removed', ARGV[1])
end
return 1`;

/** KEYS: record. ARGV: patch JSON, ttl ms. Read-merge-write in one step, so concurrent patches from two servers both land. */
const UPDATE_RECORD = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local record = cjson.decode(raw)
for k, v in pairs(cjson.decode(ARGV[1])) do record[k] = v end
redis.call('SET', KEYS[1], cjson.encode(record), 'PX', ARGV[2])
${RENEW('ARGV[2]')}
return 1`;

export class RedisClassroomStore implements ClassroomStore {
  /**
   * @param redis a command connection to the coordination Redis (not a subscriber)
   * @param ttlMs keys expire after this long without activity (the idle period plus a margin)
   */
  constructor(
    private readonly redis: Redis,
    private readonly ttlMs: number,
  ) {}

  async create(record: ClassroomRecord): Promise<void> {
    const [, ...parts] = allKeys(record.code);
    await this.redis.multi().set(recordKey(record.code), JSON.stringify(record), 'PX', this.ttlMs).del(...parts).exec();
  }

  async get(code: string): Promise<ClassroomRecord | null> {
    const raw = await this.redis.get(recordKey(code));
    return raw ? (JSON.parse(raw) as ClassroomRecord) : null;
  }

  async update(code: string, patch: RecordPatch): Promise<boolean> {
    // (A record holds no arrays, so cjson's one ambiguity, empty array vs empty object, cannot bite.)
    const result = await this.redis.eval(UPDATE_RECORD, 1, recordKey(code), JSON.stringify(patch), String(this.ttlMs));
    return result === 1;
  }

  async takeSeat(code: string, browser: string, entry: RosterEntry, cap: number): Promise<SeatOutcome> {
    const keys = allKeys(code);
    const [kind, learnerId] = (await this.redis.eval(TAKE_SEAT, keys.length, ...keys, browser, entry.learnerId, JSON.stringify(entry), String(cap), String(this.ttlMs))) as [string, string?];
    if ((kind === 'added' || kind === 'held' || kind === 'back') && learnerId) return { kind, learnerId };
    if (kind === 'removed' || kind === 'full' || kind === 'gone') return { kind };
    throw new Error(`takeSeat: unexpected answer ${kind}`);
  }

  async removeLearner(code: string, learnerId: string): Promise<boolean> {
    return (await this.redis.eval(SET_REMOVED, 1, recordKey(code), learnerId, 'remove')) === 1;
  }

  async readmitLearner(code: string, learnerId: string): Promise<boolean> {
    return (await this.redis.eval(SET_REMOVED, 1, recordKey(code), learnerId, 'readmit')) === 1;
  }

  async updateLearner(code: string, learnerId: string, change: (entry: RosterEntry) => RosterEntry): Promise<RosterEntry | null> {
    // A learner's entry is written by the servers holding that learner's tabs and by the instructor's: two writes
    // at once are rare (a person's clicks), and the last one wins, so read-modify-write is good enough here.
    const raw = await this.redis.hget(partKey(code, 'roster'), learnerId);
    if (!raw) return null;
    const next = change(JSON.parse(raw) as RosterEntry);
    await this.redis.hset(partKey(code, 'roster'), learnerId, JSON.stringify(next));
    return next;
  }

  async getLearner(code: string, learnerId: string): Promise<RosterEntry | null> {
    const raw = await this.redis.hget(partKey(code, 'roster'), learnerId);
    return raw ? (JSON.parse(raw) as RosterEntry) : null;
  }

  async roster(code: string): Promise<RosterEntry[]> {
    const all = await this.redis.hgetall(partKey(code, 'roster'));
    return Object.values(all)
      .map((raw) => JSON.parse(raw) as RosterEntry)
      .sort((a, b) => a.joinedAt - b.joinedAt);
  }

  async delete(code: string): Promise<void> {
    await this.redis.del(...allKeys(code));
  }

  async close(): Promise<void> {}
}

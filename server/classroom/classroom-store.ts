/**
 * Where classrooms are written down so any server can find them: the record
 * (code → owner server, lab, name, times, follow, last demo) and the roster.
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
}

export type AddLearnerOutcome = 'added' | 'rejoined' | 'full' | 'gone';

export interface ClassroomStore {
  create(record: ClassroomRecord): Promise<void>;
  get(code: string): Promise<ClassroomRecord | null>;
  /** Merges `patch` into the record and keeps it alive; false if the classroom is gone. */
  update(code: string, patch: Partial<Pick<ClassroomRecord, 'lastActiveAt' | 'follow' | 'demo'>>): Promise<boolean>;
  /** Adds (or, for a known learnerId, replaces) a roster entry, refusing a new learner beyond `cap`. Atomic. */
  putLearner(code: string, entry: RosterEntry, cap: number): Promise<AddLearnerOutcome>;
  /** Applies `change` to a learner's entry; null if there is no such learner (or classroom). */
  updateLearner(code: string, learnerId: string, change: (entry: RosterEntry) => RosterEntry): Promise<RosterEntry | null>;
  getLearner(code: string, learnerId: string): Promise<RosterEntry | null>;
  roster(code: string): Promise<RosterEntry[]>;
  delete(code: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryClassroomStore implements ClassroomStore {
  private readonly records = new Map<string, ClassroomRecord>();
  private readonly rosters = new Map<string, Map<string, RosterEntry>>();

  async create(record: ClassroomRecord): Promise<void> {
    this.records.set(record.code, { ...record });
    this.rosters.set(record.code, new Map());
  }
  async get(code: string): Promise<ClassroomRecord | null> {
    const record = this.records.get(code);
    return record ? { ...record } : null;
  }
  async update(code: string, patch: Partial<ClassroomRecord>): Promise<boolean> {
    const record = this.records.get(code);
    if (!record) return false;
    Object.assign(record, patch);
    return true;
  }
  async putLearner(code: string, entry: RosterEntry, cap: number): Promise<AddLearnerOutcome> {
    const roster = this.rosters.get(code);
    if (!roster) return 'gone';
    if (roster.has(entry.learnerId)) {
      roster.set(entry.learnerId, entry);
      return 'rejoined';
    }
    if (roster.size >= cap) return 'full';
    roster.set(entry.learnerId, entry);
    return 'added';
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
  }
  async close(): Promise<void> {}
}

const recordKey = (code: string) => `locklab:classroom:${code}`;
const rosterKey = (code: string) => `locklab:classroom:${code}:roster`;

/** KEYS: record, roster. ARGV: learnerId, entry JSON, cap, ttl ms. One round trip, so two servers cannot both admit the last seat. */
const PUT_LEARNER = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local outcome = 'added'
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then
  outcome = 'rejoined'
elseif redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[3]) then
  return 'full'
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return outcome`;

/** KEYS: record. ARGV: patch JSON, ttl ms. Read-merge-write in one step, so concurrent patches from two servers both land. */
const UPDATE_RECORD = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local record = cjson.decode(raw)
for k, v in pairs(cjson.decode(ARGV[1])) do record[k] = v end
redis.call('SET', KEYS[1], cjson.encode(record), 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[1] .. ':roster', ARGV[2])
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
    await this.redis.multi().set(recordKey(record.code), JSON.stringify(record), 'PX', this.ttlMs).del(rosterKey(record.code)).exec();
  }

  async get(code: string): Promise<ClassroomRecord | null> {
    const raw = await this.redis.get(recordKey(code));
    return raw ? (JSON.parse(raw) as ClassroomRecord) : null;
  }

  async update(code: string, patch: Partial<ClassroomRecord>): Promise<boolean> {
    // (A record holds no arrays, so cjson's one ambiguity, empty array vs empty object, cannot bite.)
    const result = await this.redis.eval(UPDATE_RECORD, 1, recordKey(code), JSON.stringify(patch), String(this.ttlMs));
    return result === 1;
  }

  async putLearner(code: string, entry: RosterEntry, cap: number): Promise<AddLearnerOutcome> {
    const outcome = await this.redis.eval(PUT_LEARNER, 2, recordKey(code), rosterKey(code), entry.learnerId, JSON.stringify(entry), String(cap), String(this.ttlMs));
    return outcome as AddLearnerOutcome;
  }

  async updateLearner(code: string, learnerId: string, change: (entry: RosterEntry) => RosterEntry): Promise<RosterEntry | null> {
    // A learner's entry is written only by the server holding that learner's socket, so read-modify-write is safe here.
    const raw = await this.redis.hget(rosterKey(code), learnerId);
    if (!raw) return null;
    const next = change(JSON.parse(raw) as RosterEntry);
    await this.redis.hset(rosterKey(code), learnerId, JSON.stringify(next));
    return next;
  }

  async getLearner(code: string, learnerId: string): Promise<RosterEntry | null> {
    const raw = await this.redis.hget(rosterKey(code), learnerId);
    return raw ? (JSON.parse(raw) as RosterEntry) : null;
  }

  async roster(code: string): Promise<RosterEntry[]> {
    const all = await this.redis.hgetall(rosterKey(code));
    return Object.values(all)
      .map((raw) => JSON.parse(raw) as RosterEntry)
      .sort((a, b) => a.joinedAt - b.joinedAt);
  }

  async delete(code: string): Promise<void> {
    await this.redis.del(recordKey(code), rosterKey(code));
  }

  async close(): Promise<void> {}
}

/**
 * Cuts what a learner controls in a history event down to a small prefix, in
 * the worker where the event is made, so a 1 MB argument or reply never
 * crosses to the main thread and is never kept in a lab's history. The
 * checker needs tokens, keys and script text, not megabytes.
 *
 * A cut string keeps its first chars and a marker with its full UTF-8 size and
 * a hash of the whole: `prefix…⟨1048576 B #hash⟩`. Why that is safe for the
 * checker, which compares values (a SET's token with a GET's reply, a lock's
 * token with a release's argument):
 * - a string is cut only when it is longer than its limit, and a cut string is
 *   always longer than the limit (the full prefix plus the marker), so a cut
 *   string never equals an uncut one, whatever the learner writes;
 * - two cut strings are equal only when their prefixes, byte lengths and
 *   132-bit SHA-256 prefixes all are: for different strings that needs a hash
 *   collision (a birthday search of ~2^66 hashes of megabyte strings — far
 *   beyond any run's CPU limit);
 * - the same string is always cut the same way (deterministic), so a token
 *   written and read back still compares equal.
 * The event records what was cut in `fullBytes` (the learner-sized content's
 * UTF-8 bytes in full), and a cut argument list its real length in `argCount`.
 */
import { createHash } from 'node:crypto';
import type { HistoryInput, ReplyJson } from '@/lib/history';

/** Keys, tokens, values, job names: a UUID token is 36 chars, a lesson's keys far fewer. */
export const VALUE_CHARS = 200;
/** A Lua script (EVAL's first argument, SCRIPT LOAD's): the checker reads which commands it calls. Lessons' scripts are < 400 chars. */
export const SCRIPT_CHARS = 4_096;
/** A console line is read by a person; the console itself is limited per client (SandboxLimits.consoleBytes). */
export const TEXT_CHARS = 2_000;
/** Error messages and details. */
export const MESSAGE_CHARS = 500;
/** Arguments kept per command; the checker's commands (SET, DEL, EVAL of a lock) have a handful. */
export const MAX_ARGS = 64;
/** Array items kept per reply, over all its nesting (KEYS *, LRANGE, EXEC of a pipeline). */
export const MAX_REPLY_ITEMS = 256;

/** The hash part of the marker: 22 base64url chars = 132 bits of SHA-256. */
const HASH_CHARS = 22;

/** Collects what was cut while one event is bounded. */
class Cut {
  /** UTF-8 bytes of every learner-sized string seen, in full. */
  bytes = 0;
  any = false;

  string(value: unknown, limit: number): string {
    // Typed as strings, but parts of an event come from the guest's JSON: never trust the type.
    const s = typeof value === 'string' ? value : String(value);
    if (s.length <= limit) {
      this.bytes += s.length; // ≤ its UTF-8 size; exact enough for the short strings, which are never cut
      return s;
    }
    const full = Buffer.byteLength(s, 'utf8');
    this.bytes += full;
    this.any = true;
    return cutString(s, limit, full);
  }

  /** A dropped item still counts in the size the event reports. */
  dropped(value: unknown): void {
    this.any = true;
    this.bytes += utf8Bytes(value);
  }
}

/** `s` (longer than `limit` chars) as its first `limit` chars and a marker; the result is always longer than `limit`. */
export function cutString(s: string, limit: number, fullBytes = Buffer.byteLength(s, 'utf8')): string {
  let prefix = s.slice(0, limit);
  // Never end on half of a surrogate pair: the prefix must stay valid text for the browser.
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) prefix = prefix.slice(0, -1) + '\ufffd';
  const hash = createHash('sha256').update(s, 'utf8').digest('base64url').slice(0, HASH_CHARS);
  return `${prefix}…⟨${fullBytes} B #${hash}⟩`;
}

function utf8Bytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + utf8Bytes(v), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + utf8Bytes(v), 0);
  return 0;
}

function boundArgs(command: string, args: readonly string[], cut: Cut): { args: string[]; argCount?: number } {
  const upper = command.toUpperCase();
  // Where a script sits: EVAL <script> …, SCRIPT LOAD <script>.
  const scriptAt = upper === 'EVAL' || upper === 'EVAL_RO' ? 0 : upper === 'SCRIPT' ? 1 : -1;
  const kept = args.slice(0, MAX_ARGS).map((a, i) => cut.string(a, i === scriptAt ? SCRIPT_CHARS : VALUE_CHARS));
  if (args.length <= MAX_ARGS) return { args: kept };
  for (let i = MAX_ARGS; i < args.length; i++) cut.dropped(args[i]);
  return { args: kept, argCount: args.length };
}

function boundReply(reply: ReplyJson, cut: Cut, budget: { items: number }): ReplyJson {
  if (typeof reply === 'string') return cut.string(reply, VALUE_CHARS);
  if (!Array.isArray(reply)) return reply;
  const out: ReplyJson[] = [];
  for (const item of reply) {
    if (budget.items <= 0) {
      cut.dropped(item);
      continue;
    }
    budget.items -= 1;
    out.push(boundReply(item, cut, budget));
  }
  return out;
}

/**
 * The event with every learner-sized part bounded. Returns the same object
 * when nothing had to be cut (the common case: no copy per event).
 */
export function boundEvent(event: HistoryInput): HistoryInput {
  const cut = new Cut();
  const bounded = boundFields(event, cut);
  if (!cut.any) return event;
  return { ...bounded, fullBytes: cut.bytes };
}

function boundFields(event: HistoryInput, cut: Cut): HistoryInput {
  switch (event.type) {
    case 'redis': {
      const command = cut.string(event.command, VALUE_CHARS);
      if (event.phase === 'invoke') return { ...event, command, ...boundArgs(event.command, event.args, cut) };
      const done = { ...event, command };
      if (event.reply !== undefined) done.reply = boundReply(event.reply, cut, { items: MAX_REPLY_ITEMS });
      if (event.error !== undefined) done.error = cut.string(event.error, MESSAGE_CHARS);
      return done;
    }
    case 'console':
      return { ...event, text: cut.string(event.text, TEXT_CHARS) };
    case 'job':
      return { ...event, job: cut.string(event.job, VALUE_CHARS) };
    case 'store': {
      const store = { ...event, key: cut.string(event.key, VALUE_CHARS), value: cut.string(event.value, VALUE_CHARS) };
      if (event.reason !== undefined) store.reason = cut.string(event.reason, MESSAGE_CHARS);
      return store;
    }
    case 'client':
      return event.detail === undefined ? event : { ...event, detail: cut.string(event.detail, MESSAGE_CHARS) };
    case 'lock': {
      // Its fields come from the guest's redlock module, partly from the learner's arguments (resources,
      // value, duration): keep the known fields only, each of its own type.
      const raw = Array.isArray(event.resources) ? event.resources : [];
      const resources = raw.slice(0, MAX_ARGS).map((r) => cut.string(r, VALUE_CHARS));
      for (let i = MAX_ARGS; i < raw.length; i++) cut.dropped(raw[i]);
      const lock: HistoryInput = { type: 'lock', client: event.client, event: event.event, resources, token: cut.string(event.token, VALUE_CHARS) };
      if (event.runId !== undefined) lock.runId = event.runId;
      if (event.t !== undefined) lock.t = event.t;
      for (const field of ['attempt', 'quorum', 'ttlMs', 'validityMs'] as const) {
        const n = event[field];
        if (typeof n === 'number') lock[field] = n;
      }
      if (event.detail !== undefined) lock.detail = cut.string(event.detail, MESSAGE_CHARS);
      if (Array.isArray(event.votes)) {
        lock.votes = event.votes.slice(0, MAX_ARGS).map((v) => {
          const vote = { node: Number(v.node), ok: v.ok === true };
          return v.error === undefined ? vote : { ...vote, error: cut.string(v.error, MESSAGE_CHARS) };
        });
        for (let i = MAX_ARGS; i < event.votes.length; i++) cut.dropped(event.votes[i]);
      }
      return lock;
    }
    default:
      // nemesis, node and scenario events are made by the server from its own small data.
      return event;
  }
}

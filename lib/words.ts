/**
 * A sentence as data: a catalogue key and typed values, so the checker and the
 * grader say a thing once and every page writes it in its own language. The
 * English rendering is the `message` logs, exported runs and tests read; the
 * browser renders the same `words` with its locale's catalogue. Isomorphic and
 * JSON-safe: a verdict travels from the server and back from a run file as is.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { formatDuration, formatLabTime } from './durations';
import type { MessageKeys } from './message-keys';
import type { Messages } from '../messages/catalogue';

/** Any sentence of the catalogues (`namespace.path`), checked against the English at compile time. */
export type MessageKey = MessageKeys<Messages>;

/** A value a sentence speaks of; the tagged ones are written by the reader's locale. */
export type WordValue =
  /** Said as is (a Redis command, a status) or, for a number, a count: ICU `plural` picks the form. */
  | string
  | number
  /** A point on the lab clock, in ms from the run's start: "820 ms", "1.24 s" (Norwegian: "1,24 s"). */
  | { time: number }
  /** A span in ms: "80 ms", "1.6 s", "120 s"; null is "forever" (JSON has no Infinity). */
  | { duration: number | null }
  /** A client by number: "Client 2", «العميل 2», "Klient 2". */
  | { client: number }
  /** A node by number: "Node 3". */
  | { node: number }
  /** A name from code (a job, a key): quoted, never translated. */
  | { code: string }
  /** A phrase of its own, rendered first (a clause that differs by case). */
  | { words: Words }
  /** Several values, joined by the language's list separator (", "), or by its "and" when `and` is set. */
  | { list: WordValue[]; and?: boolean };

export interface Words {
  /** A dotted catalogue path: `checker.mutualExclusion.overlap`. */
  key: string;
  values: Record<string, WordValue>;
}

/** A sentence in English (for logs, run files, tests) and as data (for the page). */
export interface Said {
  message: string;
  words: Words;
}

/** The catalogue the sentences come from: namespaces by name (`checker`, `grading`), as next-intl holds them. */
export type WordsCatalogue = Readonly<Record<string, unknown>>;

export function words(key: MessageKey, values: Record<string, WordValue> = {}): Words {
  return { key, values };
}

function isRecordOf(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value read from outside (a run file) is a WordValue: a malformed one is dropped, never rendered. */
export function isWordValue(value: unknown, depth = 0): value is WordValue {
  if (typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (!isRecordOf(value) || depth > 8) return false;
  const keys = Object.keys(value);
  const one = (name: string, ok: (v: unknown) => boolean) => keys.length === 1 && keys[0] === name && ok(value[name]);
  const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  if ('time' in value) return one('time', finite);
  if ('duration' in value) return one('duration', (v) => v === null || finite(v));
  if ('client' in value) return one('client', finite);
  if ('node' in value) return one('node', finite);
  if ('code' in value) return one('code', (v) => typeof v === 'string');
  if ('words' in value) return one('words', (v) => isWords(v, depth + 1));
  if ('list' in value) {
    const andOk = !('and' in value) || typeof value.and === 'boolean';
    return andOk && keys.every((k) => k === 'list' || k === 'and') && Array.isArray(value.list) && value.list.every((v) => isWordValue(v, depth + 1));
  }
  return false;
}

/** Whether a value read from outside (a run file) is Words: a dotted key and well-formed values. */
export function isWords(value: unknown, depth = 0): value is Words {
  if (!isRecordOf(value) || typeof value.key !== 'string' || !/^[A-Za-z0-9]+(\.[A-Za-z0-9]+)+$/.test(value.key)) return false;
  const values = value.values;
  return isRecordOf(values) && Object.values(values).every((v) => isWordValue(v, depth));
}

/** A span as a value: "forever" travels as null. */
export function duration(ms: number): WordValue {
  return { duration: Number.isFinite(ms) ? ms : null };
}

function lookup(catalogue: WordsCatalogue, key: string): string {
  let at: unknown = catalogue;
  for (const part of key.split('.')) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
  if (typeof at !== 'string') throw new Error(`no message for ${key}`);
  return at;
}

const compiled = new WeakMap<WordsCatalogue, Map<string, IntlMessageFormat>>();

function formatOf(catalogue: WordsCatalogue, locale: string, key: string): IntlMessageFormat {
  let byKey = compiled.get(catalogue);
  if (!byKey) compiled.set(catalogue, (byKey = new Map()));
  const id = `${locale}\u0000${key}`;
  let format = byKey.get(id);
  if (!format) byKey.set(id, (format = new IntlMessageFormat(lookup(catalogue, key), locale)));
  return format;
}

const decimals = new Map<string, string>();

/** The locale's decimal separator ("," in Norwegian); digits and grouping stay as the lab writes them (0–9, none). */
function decimalOf(locale: string): string {
  let mark = decimals.get(locale);
  if (mark === undefined) {
    mark = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
    decimals.set(locale, mark);
  }
  return mark;
}

function timeText(t: number, locale: string): string {
  return formatLabTime(t, decimalOf(locale));
}

function durationText(ms: number | null, locale: string, catalogue: WordsCatalogue): string {
  if (ms === null || !Number.isFinite(ms)) return render(words('checker.value.forever'), locale, catalogue);
  return formatDuration(ms, decimalOf(locale));
}

/** Right-to-left languages: a time ("307 ms") or a name from code must read as one left-to-right unit inside them. */
const RTL = /^(ar|he|fa|ur)\b/;

function isolated(text: string, locale: string): string {
  return RTL.test(locale) ? `\u2066${text}\u2069` : text;
}

function valueText(value: WordValue, locale: string, catalogue: WordsCatalogue): string | number {
  if (typeof value === 'string' || typeof value === 'number') return value;
  if ('time' in value) return isolated(timeText(value.time, locale), locale);
  if ('duration' in value) return isolated(durationText(value.duration, locale, catalogue), locale);
  if ('client' in value) return render(words('checker.value.client', { n: value.client }), locale, catalogue);
  if ('node' in value) return render(words('checker.value.node', { n: value.node }), locale, catalogue);
  if ('code' in value) return isolated(`'${value.code}'`, locale);
  if ('words' in value) return render(value.words, locale, catalogue);
  const separator = value.and ? 'checker.value.listAnd' : 'checker.value.listSeparator';
  return value.list.map((v) => String(valueText(v, locale, catalogue))).join(render(words(separator), locale, catalogue));
}

/** The sentence in `locale`, from that locale's catalogue. Throws on a key the catalogue lacks (a bug, not data). */
export function render(said: Words, locale: string, catalogue: WordsCatalogue): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(said.values)) values[name] = valueText(value, locale, catalogue);
  return String(formatOf(catalogue, locale, said.key).format(values));
}

/** Every catalogue key a sentence uses, nested phrases and the value labels included (for tests). */
export function keysOf(said: Words): string[] {
  const keys = [said.key];
  const visit = (value: WordValue): void => {
    if (typeof value !== 'object') return;
    if ('words' in value) keys.push(...keysOf(value.words));
    else if ('list' in value) {
      keys.push(value.and ? 'checker.value.listAnd' : 'checker.value.listSeparator');
      value.list.forEach(visit);
    } else if ('client' in value) keys.push('checker.value.client');
    else if ('node' in value) keys.push('checker.value.node');
    else if ('duration' in value && (value.duration === null || !Number.isFinite(value.duration))) keys.push('checker.value.forever');
  };
  Object.values(said.values).forEach(visit);
  return keys;
}

/**
 * A probe's sentences as data. A probe (`lessons/<folder>/adversaries/*.ts`)
 * names what it saw by key with values — `__probe.expect(ok, 'staleThrew',
 * { error })` — and its adversary's file holds the English ICU templates
 * (`says`); a translation's `texts.json` holds the same keys in its language.
 * The grader writes the sentence in English for logs and in the page's
 * language for the learner. Isomorphic: templates are checked here for the
 * lesson schema, the loader and tests alike.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { formatDuration } from '../durations';

/** A value a probe's sentence speaks of, as the probe sends it (JSON). */
export type ProbeValue =
  | string
  | number
  | boolean
  | null
  /** A value as code (`__probe.show(x)`): written as is, kept left-to-right inside a right-to-left sentence. */
  | { code: string }
  /** A span in ms: "80 ms", "1.6 s", with the language's decimal mark. */
  | { duration: number }
  /** A phrase of its own (`__probe.say(key, values)`), rendered first. */
  | { say: string; values: Record<string, ProbeValue> }
  /** Several values joined as the language joins a list with "and". */
  | { list: ProbeValue[] };

/** What a probe failed with: a key of its adversary's `says`, and the values the template names. */
export interface ProbeSaid {
  key: string;
  values: Record<string, ProbeValue>;
}

/** A `says` key: a name a probe writes in its code. */
export const SAY_KEY = /^[a-z][A-Za-z0-9]*$/;

/** Why `template` is not a valid ICU message, or null. */
export function templateError(template: string): string | null {
  try {
    parse(template);
    return null;
  } catch (error) {
    return `not a valid ICU message: ${(error as Error).message}`;
  }
}

/** The arguments an ICU template names ({error}, {n, plural, …}), sorted. */
export function icuArguments(template: string): string[] {
  const names = new Set<string>();
  const visit = (elements: MessageFormatElement[]): void => {
    for (const el of elements) {
      if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) names.add(el.value);
      else if (el.type === TYPE.select || el.type === TYPE.plural) {
        names.add(el.value);
        for (const option of Object.values(el.options)) visit(option.value);
      } else if (el.type === TYPE.tag) visit(el.children);
    }
  };
  visit(parse(template));
  return [...names].sort();
}

/** Right-to-left languages: code inside them must read as one left-to-right unit. */
const RTL = /^(ar|he|fa|ur)\b/;
const isolated = (text: string, locale: string): string => (RTL.test(locale) ? `\u2066${text}\u2069` : text);

function decimalOf(locale: string): string {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

function valueText(value: ProbeValue, templates: Readonly<Record<string, string>>, locale: string): string | number {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return String(value);
  if ('code' in value) return isolated(value.code, locale);
  if ('duration' in value) return isolated(formatDuration(value.duration, decimalOf(locale)), locale);
  if ('say' in value) return renderProbeSaid({ key: value.say, values: value.values }, templates, locale);
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(value.list.map((v) => String(valueText(v, templates, locale))));
}

/**
 * Code a right-to-left sentence writes in Latin letters (`acquire()`, `SET … NX`, `KEYS[1]`, `⌊n/2⌋ + 1`): each run
 * from a Latin letter to the last Latin-ish character before Arabic text, isolated as one left-to-right unit, so
 * its brackets and spaces are not reordered around it. A closing bracket the run did not open stays outside.
 */
export function isolateCodeRuns(text: string): string {
  return text.replace(/[A-Za-z_$⌊](?:[^\u0600-\u06FF\u2066-\u2069]*[A-Za-z0-9_$)\]⌋'"…])?/g, (run) => {
    let code = run;
    const count = (c: string) => code.split(c).length - 1;
    while (code.endsWith(')') && count(')') > count('(')) code = code.slice(0, -1);
    while (code.endsWith(']') && count(']') > count('[')) code = code.slice(0, -1);
    const trimmed = code.replace(/[\s.,:;]+$/, '');
    return `\u2066${trimmed}\u2069${run.slice(trimmed.length)}`;
  });
}

function isolateLiterals(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((el) => {
    if (el.type === TYPE.literal) return { ...el, value: isolateCodeRuns(el.value) };
    if (el.type === TYPE.select || el.type === TYPE.plural) {
      return { ...el, options: Object.fromEntries(Object.entries(el.options).map(([k, o]) => [k, { ...o, value: isolateLiterals(o.value) }])) };
    }
    if (el.type === TYPE.tag) return { ...el, children: isolateLiterals(el.children) };
    return el;
  });
}

/** The sentence in `locale` from that language's templates. Throws on a key the templates lack (a bug in the probe). */
export function renderProbeSaid(said: ProbeSaid, templates: Readonly<Record<string, string>>, locale: string): string {
  const template = templates[said.key];
  if (template === undefined) throw new Error(`the probe said "${said.key}", which its adversary's "says" lacks`);
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(said.values)) values[name] = valueText(value, templates, locale);
  const message = RTL.test(locale) ? isolateLiterals(parse(template)) : template;
  return String(new IntlMessageFormat(message, locale).format(values));
}

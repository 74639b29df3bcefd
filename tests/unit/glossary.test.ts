/**
 * One vocabulary per language: every Arabic and Norwegian string the product shows (the interface catalogues, the
 * sandbox reference page and each lesson's prose, hints, quiz and scenario texts) uses the glossary's canonical term for a concept, never one
 * of the variants the glossary lists (`messages/glossary/<locale>.json`). A failure names the file, the key or line,
 * the variant found and the term to write instead. The glossary's own examples hold its patterns to their word:
 * each `caught` example is flagged, each `allowed` one (a legitimate use of a similar word) is not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageLeaves } from '@/messages/leaves';

interface Variant {
  /** A JavaScript regular expression (flags `giu`); `wholeWord` terms match only between non-letters. */
  pattern: string;
  /** Why it is wrong, when the term's note does not say it. */
  why?: string;
  /**
   * Only in messages whose key matches this expression (flags `u`): a word that is right in general but wrong for
   * one concept, such as «انتهى» for a client that exited (`status.exited`). Prose lines have no key.
   */
  key?: string;
}
interface Term {
  term: string;
  concept: string;
  note: string;
  wholeWord?: boolean;
  variants: Variant[];
  /** Text each of which a variant must flag; `key|text` for a variant that has a key. */
  caught: string[];
  /** Legitimate text no variant may flag; `key|text` as for `caught`. */
  allowed: string[];
}
interface Glossary {
  locale: string;
  terms: Term[];
}

const ROOT = process.cwd();
const LOCALES = ['ar', 'nb'] as const;
// comments.json: the translated comments woven into the lesson's programs (lib/lessons/program-comments.ts).
const LESSON_FILES = ['lesson.mdx', 'hints.md', 'quiz.json', 'texts.json', 'comments.json'];

const glossaryOf = (locale: string): Glossary =>
  JSON.parse(fs.readFileSync(path.join(ROOT, 'messages', 'glossary', `${locale}.json`), 'utf8')) as Glossary;

/** A place a learner reads a string: a file, and a key (JSON) or a line (prose). */
interface Shown {
  file: string;
  where: string;
  text: string;
}

/** Code is quoted, not translated: fenced blocks and `inline code` are left out of prose. */
function proseLines(file: string, source: string): Shown[] {
  const out: Shown[] = [];
  let fenced = false;
  source.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (!fenced) out.push({ file, where: `line ${i + 1}`, text: withoutCode(line) });
  });
  return out;
}

const withoutCode = (text: string) => text.replace(/`[^`]*`/g, '`…`');

function shownStrings(locale: string): Shown[] {
  const out: Shown[] = [];
  const dir = path.join(ROOT, 'messages', locale);
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const file = path.join('messages', locale, name);
    for (const [key, text] of messageLeaves(JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')))) out.push({ file, where: key, text });
  }
  // The sandbox reference page a learner opens beside the editor.
  const reference = path.join('server', 'sandbox', `reference.${locale}.md`);
  out.push(...proseLines(reference, fs.readFileSync(path.join(ROOT, reference), 'utf8')));
  const lessons = path.join(ROOT, 'lessons');
  for (const lesson of fs.readdirSync(lessons).filter((n) => /^\d\d-/.test(n)).sort()) {
    for (const name of LESSON_FILES) {
      const file = path.join('lessons', lesson, 'i18n', locale, name);
      if (!fs.existsSync(path.join(ROOT, file))) continue;
      const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
      if (name.endsWith('.json')) {
        for (const [key, text] of messageLeaves(JSON.parse(source))) out.push({ file, where: key, text: withoutCode(text) });
      } else out.push(...proseLines(file, source));
    }
  }
  return out;
}

function patternsOf(term: Term): { variant: Variant; regex: RegExp; key: RegExp | null }[] {
  return term.variants.map((variant) => {
    const source = term.wholeWord ? `(?<![\\p{L}\\p{M}])(?:${variant.pattern})(?![\\p{L}\\p{M}])` : variant.pattern;
    return { variant, regex: new RegExp(source, 'giu'), key: variant.key ? new RegExp(variant.key, 'u') : null };
  });
}

/** Every variant of the glossary found in `text` (shown under `where`), as "«found» → term". */
function findings(glossary: Glossary, text: string, where = ''): string[] {
  const out: string[] = [];
  for (const term of glossary.terms) {
    for (const { variant, regex, key } of patternsOf(term)) {
      if (key && !key.test(where)) continue;
      for (const match of text.matchAll(regex)) out.push(`«${inWords(text, match.index, match[0].length)}» → ${term.term}${variant.why ? ` (${variant.why})` : ''}`);
    }
  }
  return out;
}

/** The match widened to whole words, so a report shows «5 ثانية» rather than «5 ثاني». */
function inWords(text: string, start: number, length: number): string {
  const letter = /[\p{L}\p{M}\p{N}]/u;
  let from = start;
  let to = start + length;
  while (from > 0 && letter.test(text[from - 1]!)) from--;
  while (to < text.length && letter.test(text[to]!)) to++;
  return text.slice(from, to);
}

/** An example is `text`, or `key|text` for a message shown under a key. */
function example(value: string): { where: string; text: string } {
  const bar = value.indexOf('|');
  return bar > 0 && /^[\w.-]+$/.test(value.slice(0, bar)) ? { where: value.slice(0, bar), text: value.slice(bar + 1) } : { where: '', text: value };
}

describe.each(LOCALES)('the %s glossary', (locale) => {
  const glossary = glossaryOf(locale);
  const shown = shownStrings(locale);

  it('is well formed: every term has a concept, a note, patterns that compile and examples for both sides', () => {
    expect(glossary.locale).toBe(locale);
    for (const term of glossary.terms) {
      expect(term.term && term.concept && term.note, JSON.stringify(term)).toBeTruthy();
      expect(term.variants.length, term.term).toBeGreaterThan(0);
      expect(term.caught.length, `${term.term}: no example of a variant`).toBeGreaterThan(0);
      expect(() => patternsOf(term), term.term).not.toThrow();
      for (const v of term.variants) expect(Object.keys(v).every((k) => ['pattern', 'why', 'key'].includes(k)), `${term.term}: ${JSON.stringify(v)}`).toBe(true);
    }
  });

  it.each(glossaryOf(locale).terms.map((t) => [t.term, t] as const))('"%s": catches each variant example, and no legitimate one', (_, term) => {
    const own: Glossary = { locale, terms: [term] };
    for (const e of term.caught.map(example)) expect(findings(own, e.text, e.where), `not caught: ${e.where} ${e.text}`).not.toEqual([]);
    for (const e of term.allowed.map(example)) expect(findings(own, e.text, e.where), `flagged though legitimate: ${e.where} ${e.text}`).toEqual([]);
  });

  it('is used: each canonical term appears in what the product shows', () => {
    const all = shown.map((s) => s.text).join('\n').toLowerCase();
    expect(glossary.terms.filter((t) => !all.includes(t.term.toLowerCase())).map((t) => t.term)).toEqual([]);
  });

  it('finds no non-canonical variant in the interface or the lessons', () => {
    expect(shown.length).toBeGreaterThan(500);
    const found = shown.flatMap((s) => findings(glossary, s.text, s.where).map((f) => `${s.file} ${s.where}: ${f}`));
    expect(found).toEqual([]);
  });
});

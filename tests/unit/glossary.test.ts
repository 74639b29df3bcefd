/**
 * One vocabulary per language: every Arabic and Norwegian string the product shows (the interface catalogues and
 * each lesson's prose, hints, quiz and scenario texts) uses the glossary's canonical term for a concept, never one
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
}
interface Term {
  term: string;
  concept: string;
  note: string;
  wholeWord?: boolean;
  variants: Variant[];
  /** Text each of which a variant must flag. */
  caught: string[];
  /** Legitimate text no variant may flag. */
  allowed: string[];
}
interface Glossary {
  locale: string;
  terms: Term[];
}

const ROOT = process.cwd();
const LOCALES = ['ar', 'nb'] as const;
const LESSON_FILES = ['lesson.mdx', 'hints.md', 'quiz.json', 'texts.json'];

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

function patternsOf(term: Term): { variant: Variant; regex: RegExp }[] {
  return term.variants.map((variant) => {
    const source = term.wholeWord ? `(?<![\\p{L}\\p{M}])(?:${variant.pattern})(?![\\p{L}\\p{M}])` : variant.pattern;
    return { variant, regex: new RegExp(source, 'giu') };
  });
}

/** Every variant of the glossary found in `text`, as "«found» → term". */
function findings(glossary: Glossary, text: string): string[] {
  const out: string[] = [];
  for (const term of glossary.terms) {
    for (const { variant, regex } of patternsOf(term)) {
      for (const match of text.matchAll(regex)) out.push(`«${match[0]}» → ${term.term}${variant.why ? ` (${variant.why})` : ''}`);
    }
  }
  return out;
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
    }
  });

  it.each(glossaryOf(locale).terms.map((t) => [t.term, t] as const))('"%s": catches each variant example, and no legitimate one', (_, term) => {
    const own: Glossary = { locale, terms: [term] };
    for (const example of term.caught) expect(findings(own, example), `not caught: ${example}`).not.toEqual([]);
    for (const example of term.allowed) expect(findings(own, example), `flagged though legitimate: ${example}`).toEqual([]);
  });

  it('is used: each canonical term appears in what the product shows', () => {
    const all = shown.map((s) => s.text).join('\n').toLowerCase();
    expect(glossary.terms.filter((t) => !all.includes(t.term.toLowerCase())).map((t) => t.term)).toEqual([]);
  });

  it('finds no non-canonical variant in the interface or the lessons', () => {
    expect(shown.length).toBeGreaterThan(500);
    const found = shown.flatMap((s) => findings(glossary, s.text).map((f) => `${s.file} ${s.where}: ${f}`));
    expect(found).toEqual([]);
  });
});

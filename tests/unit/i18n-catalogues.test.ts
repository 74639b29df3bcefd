/**
 * Every language is whole: each message of the English catalogue exists in
 * Arabic and Norwegian, with the same placeholders and tags and valid ICU
 * syntax (plural forms included), nothing a language has that English lacks;
 * and every lesson has all three languages, with no part falling back to English.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@/i18n/routing';
import { loadAllLessonsIn } from '@/lib/lessons/localize';
import { english, messageLeaves as leaves, missingKeys, NAMESPACES } from '@/messages/catalogue';

const TRANSLATIONS = LOCALES.filter((l) => l !== 'en');

/** The arguments and tags a message uses: a translation must use the same ones, or a value would go missing. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const e of elements) {
    if (e.type === TYPE.argument || e.type === TYPE.number || e.type === TYPE.date || e.type === TYPE.time) into.add(e.value);
    if (e.type === TYPE.plural || e.type === TYPE.select) {
      into.add(e.value);
      for (const option of Object.values(e.options)) argumentsOf(option.value, into);
    }
    if (e.type === TYPE.tag) {
      into.add(`<${e.value}>`);
      argumentsOf(e.children, into);
    }
  }
  return into;
}

function catalogue(locale: string, ns: string): unknown {
  const file = path.join(process.cwd(), 'messages', locale, `${ns}.json`);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
}

describe.each(TRANSLATIONS)('the %s catalogue', (locale) => {
  it.each(NAMESPACES)('has every message of "%s", with the same arguments, and nothing more', (ns) => {
    const source = leaves(english[ns]);
    const own = leaves(catalogue(locale, ns));
    expect(missingKeys(english[ns], catalogue(locale, ns)), 'not translated').toEqual([]);
    expect([...own.keys()].filter((k) => !source.has(k)), 'not in the English catalogue').toEqual([]);
    for (const [key, text] of own) {
      const english = source.get(key) ?? '';
      const theirs = argumentsOf(parse(text, { ignoreTag: false }));
      expect([...theirs].sort(), `${ns}.${key}: "${text}"`).toEqual([...argumentsOf(parse(english, { ignoreTag: false }))].sort());
    }
  });
});

it('the English catalogue parses as ICU messages', () => {
  for (const ns of NAMESPACES) for (const [key, text] of leaves(english[ns])) expect(() => parse(text, { ignoreTag: false }), `${ns}.${key}`).not.toThrow();
});

describe.each(TRANSLATIONS)('the lessons in %s', (locale) => {
  it('are whole: no part of any lesson falls back to English', () => {
    const gaps = loadAllLessonsIn(locale).flatMap(({ lesson, missing }) => missing.map((m) => `${lesson.folder}: ${m}`));
    expect(gaps).toEqual([]);
  });
});

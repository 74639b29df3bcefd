/**
 * A lesson program is written once: each language shows the English code on the same lines, with its comments
 * translated from `i18n/<locale>/comments.json` (keyed by the English comment). A comment without a translation, or a
 * translation whose English comment changed, is a gap that names the lesson, the file and the comment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAllLessons, loadLesson, type Lesson } from '@/lib/lessons/load';
import { localizeLesson } from '@/lib/lessons/localize';
import { intoLines, programComments, weaveComments } from '@/lib/lessons/program-comments';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lesson-comments-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const english = loadAllLessons();
const programsOf = (l: Lesson): [string, string][] => [['starter.ts', l.starter], ['solution.ts', l.solution], ...Object.entries(l.programs)];

/** The lines of a program with each comment cut off: what must be the same in every language. */
function codeLines(source: string): string[] {
  const lines = source.split('\n');
  for (const unit of programComments(source)) {
    for (let i = unit.line - 1; i < unit.line - 1 + unit.lines; i++) lines[i] = (lines[i] ?? '').slice(0, (lines[i] ?? '').lastIndexOf('//')).trimEnd();
  }
  return lines;
}

describe.each(['ar', 'nb'] as const)('the lesson programs in %s', (locale) => {
  it.each(english.map((l) => [l.folder, l] as const))('%s: the English code on the same lines, every comment translated', (_folder, lesson) => {
    const { lesson: localized, missing } = localizeLesson(lesson, locale);
    expect(missing.filter((m) => m.startsWith('comments.json')).map((m) => `${lesson.folder}/i18n/${locale}/${m}`), 'comments not translated, or translations of comments that changed').toEqual([]);
    const translated = new Map(programsOf(localized));
    for (const [file, source] of programsOf(lesson)) {
      const own = translated.get(file) ?? '';
      expect(codeLines(own), `${lesson.folder}/${file} in ${locale}`).toEqual(codeLines(source));
      // Every comment is in the language: no English comment survives the weave.
      const ours = programComments(own).map((u) => u.key);
      const english = programComments(source).map((u) => u.key);
      expect(ours.filter((k, i) => k === english[i] && k.split(' ').length > 3), `${lesson.folder}/${file}: comments left in English`).toEqual([]);
    }
    for (const s of localized.lessonScenarios) expect(s.code, s.id).toBe(translated.get(s.program === 'starter' ? 'starter.ts' : s.program === 'solution' ? 'solution.ts' : s.program));
  });
});

it('a changed English comment is named with its lesson, file and line, and its old translation as stale', () => {
  const root = path.join(tmp, 'changed');
  fs.cpSync(path.resolve('lessons/02-safe-release'), path.join(root, '02-safe-release'), { recursive: true });
  const file = path.join(root, '02-safe-release', 'solution.ts');
  const before = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, before.replace('// interleaving other commands, so nobody can take the key between the two.', '// interleaving other commands, so no client can take the key between the two.'));
  const { missing } = localizeLesson(loadLesson(path.join(root, '02-safe-release')), 'ar', root);
  expect(missing).toContain('comments.json → solution.ts:20 "Compare and delete in one Lua script: Redis runs a script without interleaving other commands, so no client can take the key between the two."');
  expect(missing).toContain('comments.json → "Compare and delete in one Lua script: Redis runs a script without interleaving other commands, so nobody can take the key between the two.": no English comment says this (changed or removed?)');
});

it('shows the translation in the editor: the Arabic solution of lesson 2 explains its script in Arabic, on the English line', () => {
  const lesson = english.find((l) => l.folder === '02-safe-release')!;
  const line = lesson.solution.split('\n').findIndex((l) => l.startsWith('// Compare and delete'));
  const arabic = localizeLesson(lesson, 'ar').lesson.solution.split('\n')[line] ?? '';
  expect(arabic).toMatch(/^\/\/ المقارنة والحذف/);
});

describe('weaving', () => {
  const program = ['// One two three', '// four five.', 'const a = 1; // the answer', '', 'function f() {', '  // inside', '  return a;', '}', ''].join('\n');

  it('finds blocks of whole-line comments and comments after code', () => {
    expect(programComments(program)).toEqual([
      { kind: 'block', key: 'One two three four five.', line: 1, lines: 2 },
      { kind: 'trailing', key: 'the answer', line: 3, lines: 1 },
      { kind: 'block', key: 'inside', line: 6, lines: 1 },
    ]);
  });

  it('keeps the code and the line count; an untranslated comment stays English and is reported', () => {
    const words: Record<string, string> = { 'One two three four five.': 'En to tre fire fem.', 'the answer': 'svaret' };
    const { code, untranslated } = weaveComments(program, (k) => words[k]);
    expect(code.split('\n')).toEqual(['// En to tre', '// fire fem.', 'const a = 1; // svaret', '', 'function f() {', '  // inside', '  return a;', '}', '']);
    expect(untranslated).toEqual([{ kind: 'block', key: 'inside', line: 6, lines: 1 }]);
  });

  it("keeps a translator's line breaks when they give the English line count, else spreads the words evenly", () => {
    expect(intoLines('a b\nc', 2)).toEqual(['a b', 'c']);
    expect(intoLines('aaa bbb ccc ddd', 2)).toEqual(['aaa bbb', 'ccc ddd']);
    expect(intoLines('one two three', 3)).toEqual(['one', 'two', 'three']);
    expect(intoLines('one', 2)).toEqual(['one', '']);
  });

  it('refuses a /* */ comment, which cannot be translated line for line', () => {
    expect(() => programComments('/* a */\nconst a = 1;\n')).toThrow(/\/\/ lines/);
  });
});

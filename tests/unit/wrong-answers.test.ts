/**
 * A wrong answer is its mistake only: the declarations it changes, composed with the
 * reference solution, so it always runs the solution's current driver.
 */
import { transform } from 'sucrase';
import { describe, expect, it } from 'vitest';
import { loadAllLessons } from '@/lib/lessons/load';
import { composeWrongAnswer } from '@/lib/lessons/wrong-answers';

const solution = [
  '// A solution.',
  "import lab from 'lab';",
  '',
  'const TTL = 1000;',
  '',
  '// Takes the lock.',
  'async function acquire(): Promise<boolean> {',
  '  return true;',
  '}',
  '',
  'const ok = await acquire();',
  "lab.log(ok ? 'mine' : 'not mine');",
  '',
].join('\n');

describe('composing a wrong answer with the solution', () => {
  it('puts a changed function in place of the solution\'s, with its comment, under the header', () => {
    const code = composeWrongAnswer(solution, '// Wrong: never takes it.\n// More words.\n\n// Says no.\nasync function acquire(): Promise<boolean> {\n  return false;\n}\n');
    expect(code).toBe(solution.replace('// Takes the lock.\nasync function acquire(): Promise<boolean> {\n  return true;', '// Says no.\nasync function acquire(): Promise<boolean> {\n  return false;').replace(/^/, '// Wrong: never takes it.\n// More words.\n'));
  });

  it('places a new statement after the one before it, or before the first replaced one', () => {
    const code = composeWrongAnswer(solution, '// Wrong: x.\n\nlet calls = 0;\nasync function acquire(): Promise<boolean> {\n  return ++calls > 1;\n}\nconst ok = await acquire();\nconst again = await acquire();\n');
    const lines = code.split('\n');
    expect(lines.indexOf('let calls = 0;')).toBeLessThan(lines.indexOf('async function acquire(): Promise<boolean> {'));
    expect(lines.indexOf('const again = await acquire();')).toBe(lines.indexOf('const ok = await acquire();') + 1);
    expect(lines.filter((l) => l.startsWith('const ok'))).toHaveLength(1);
  });

  it('refuses a file without its header, one that replaces nothing, and one that changes nothing', () => {
    expect(() => composeWrongAnswer(solution, 'const TTL = 10;\n')).toThrow(/Wrong: /);
    expect(() => composeWrongAnswer(solution, '// Wrong: x.\n\nconst other = 1;\n')).toThrow(/replaces none/);
    expect(() => composeWrongAnswer(solution, '// Wrong: x.\n\nconst TTL = 1000;\n')).toThrow(/changes nothing/);
  });
});

describe.each(loadAllLessons().map((l) => [l.folder, l] as const))('%s', (_folder, lesson) => {
  it.each(lesson.wrong.map((w) => [w.name, w] as const))('wrong/%s.ts is the solution with its mistake: it compiles, and ends with the solution\'s driver', (_name, wrong) => {
    expect(() => transform(wrong.code, { transforms: ['typescript'] })).not.toThrow();
    expect(wrong.code.startsWith(`// Wrong: ${wrong.mistake}\n`)).toBe(true);
    const driverEnd = lesson.solution.trimEnd().split('\n').slice(-1)[0] ?? '';
    expect(wrong.code.trimEnd().endsWith(driverEnd)).toBe(true);
    expect(wrong.code).not.toBe(lesson.solution);
  });
});

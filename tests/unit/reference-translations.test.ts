/**
 * The reference page's translations (server/sandbox/reference.<locale>.md) say what the README's learner part says:
 * the same code, module and host names (every `code` span, as often), the same sections and the same table rows,
 * so a change to the sandbox that reaches the README but not a translation fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const read = (file: string) => fs.readFileSync(path.join(process.cwd(), 'server/sandbox', file), 'utf8');
const english = read('README.md').split('\n## For developers')[0]!;

const codeSpans = (text: string) => (text.match(/`[^`]+`/g) ?? []).sort();
const headings = (text: string) => (text.match(/^#{1,6} /gm) ?? []).length;
const tableRows = (text: string) => text.split('\n').filter((line) => line.startsWith('|')).length;

describe.each(['ar', 'nb'])('the reference in %s', (locale) => {
  const translation = read(`reference.${locale}.md`);

  it('has every code span of the English learner part, unchanged, and no other', () => {
    expect(codeSpans(translation)).toEqual(codeSpans(english));
  });

  it('has as many sections and table rows', () => {
    expect(headings(translation)).toBe(headings(english));
    expect(tableRows(translation)).toBe(tableRows(english));
  });
});

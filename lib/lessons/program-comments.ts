/**
 * A lesson program's comments, as units a translation can replace by key, and
 * the program with translated comments woven in.
 *
 * A lesson's code is written once, in English. Its comments are the only words
 * in it; a translation gives each comment's text in its language, keyed by the
 * English text (`i18n/<locale>/comments.json`). Weaving keeps every line where
 * it is: a block of N comment lines becomes N translated lines, so a program
 * has the same code on the same line numbers in every language.
 */
import ts from 'typescript';

/** One comment a learner reads: a block of whole-line `//` comments, or the comment after code on a line. */
export interface CommentUnit {
  kind: 'block' | 'trailing';
  /** The English text: the lines' texts joined by one space (the translation's key). */
  key: string;
  /** The 1-based line of its first line. */
  line: number;
  /** How many lines it takes (1 for a trailing comment). */
  lines: number;
}

interface Located extends CommentUnit {
  /** Per line: the offset of its `//`, and of the line's end. */
  spans: { from: number; to: number; indent: string }[];
}

/** The comments of a program, in order. */
export function programComments(source: string): CommentUnit[] {
  return locate(source).map(({ kind, key, line, lines }) => ({ kind, key, line, lines }));
}

/**
 * The program with each comment's translation in place of its English text.
 * A comment `translate` has no words for stays English and is returned in `untranslated`.
 */
export function weaveComments(source: string, translate: (key: string) => string | undefined): { code: string; untranslated: CommentUnit[] } {
  const untranslated: CommentUnit[] = [];
  let code = '';
  let at = 0;
  for (const unit of locate(source)) {
    const words = translate(unit.key);
    if (words === undefined) {
      untranslated.push({ kind: unit.kind, key: unit.key, line: unit.line, lines: unit.lines });
      continue;
    }
    const lines = intoLines(words, unit.lines);
    unit.spans.forEach((span, i) => {
      code += source.slice(at, span.from) + `// ${lines[i] ?? ''}`.trimEnd();
      at = span.to;
    });
  }
  return { code: code + source.slice(at), untranslated };
}

/**
 * A translation laid over `count` lines: as the translator broke it when that is `count` lines, else its words
 * spread over `count` lines of about even length (a translation is rarely as long as the English).
 */
export function intoLines(text: string, count: number): string[] {
  const own = text.split('\n').map((l) => l.trim());
  if (own.length === count) return own;
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let rest = words;
  for (let i = count; i > 0; i--) {
    const left = rest.join(' ').length;
    const target = left / i;
    let taken = 0;
    let length = 0;
    // Take words while the line stays nearer the even share than it would be without the next word.
    while (taken < rest.length && (taken === 0 || i === 1 || Math.abs(length + 1 + (rest[taken]?.length ?? 0) - target) <= Math.abs(length - target))) {
      length += (taken === 0 ? 0 : 1) + (rest[taken]?.length ?? 0);
      taken++;
    }
    lines.push(rest.slice(0, taken).join(' '));
    rest = rest.slice(taken);
  }
  return lines;
}

function locate(source: string): Located[] {
  const file = ts.createSourceFile('program.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const ranges = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node) => {
    for (const r of ts.getLeadingCommentRanges(source, node.pos) ?? []) ranges.set(r.pos, r);
    for (const r of ts.getTrailingCommentRanges(source, node.end) ?? []) ranges.set(r.pos, r);
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  const units: Located[] = [];
  for (const range of [...ranges.values()].sort((a, b) => a.pos - b.pos)) {
    const { line, character } = file.getLineAndCharacterOfPosition(range.pos);
    const lineStart = range.pos - character;
    const before = source.slice(lineStart, range.pos);
    if (range.kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      throw new Error(`line ${line + 1}: a lesson program's comments are // lines (a /* */ comment cannot be translated line for line)`);
    }
    const text = source.slice(range.pos + 2, range.end).replace(/^ /, '').trimEnd();
    const span = { from: range.pos, to: range.end, indent: before };
    const previous = units[units.length - 1];
    const wholeLine = before.trim() === '';
    if (wholeLine && previous?.kind === 'block' && previous.line + previous.lines === line + 1 && previous.spans[0]?.indent === before) {
      previous.key = `${previous.key} ${text}`.trim();
      previous.lines++;
      previous.spans.push(span);
      continue;
    }
    units.push({ kind: wholeLine ? 'block' : 'trailing', key: text, line: line + 1, lines: 1, spans: [span] });
  }
  return units;
}

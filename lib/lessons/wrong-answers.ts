/**
 * A wrong answer (`lessons/<lesson>/wrong/<name>.ts`) is written as its mistake only: the
 * declarations it changes, composed here with the reference solution's program, so the
 * wrong answer always runs the solution's current driver and differs from it only where
 * the mistake is.
 *
 * The file starts with its header, `// Wrong: <the mistake>` and more `//` lines if needed,
 * then a blank line, then top-level statements:
 * - a statement that declares what a statement of the solution declares (a function, a
 *   class, a `const`/`let` of the same names, an import of the same module) replaces it,
 *   its comments with it; one that is the solution's own, unchanged, marks a place;
 * - any other statement is new: it goes right after the one before it in the file, or,
 *   before any such, right before the first one that replaces.
 */
import ts from 'typescript';

export class WrongAnswerError extends Error {}

interface Part {
  statement: ts.Statement;
  /** Its text with the comments before it. */
  text: string;
  name: string | null;
  code: string;
}

const printer = ts.createPrinter({ removeComments: true });

/** The wrong answer as a whole program: its header, then the solution with its mistake in place. */
export function composeWrongAnswer(solution: string, wrong: string): string {
  const header = /^(\/\/ Wrong: .*\n(?:\/\/.*\n)*)\n/.exec(wrong)?.[1];
  if (header === undefined) throw new WrongAnswerError('starts with its mistake, "// Wrong: …" (and more // lines), then a blank line, then the declarations it changes');
  const ours = parts(solution, 0);
  const theirs = parts(wrong, header.length);
  if (theirs.length === 0) throw new WrongAnswerError('has no code after its header: write the declarations the mistake changes');

  const replaced = new Map<number, string>();
  const before = new Map<number, string[]>();
  const after = new Map<number, string[]>();
  const waiting: string[] = [];
  let last: number | null = null;
  for (const part of theirs) {
    const index = part.name === null ? -1 : ours.findIndex((o) => o.name === part.name);
    if (index === -1) {
      if (last === null) waiting.push(part.text);
      else after.set(last, [...(after.get(last) ?? []), part.text]);
      continue;
    }
    if (replaced.has(index)) throw new WrongAnswerError(`replaces "${part.name}" twice`);
    replaced.set(index, part.code === ours[index]?.code ? (ours[index]?.text ?? '') : part.text);
    if (last === null && waiting.length > 0) before.set(index, waiting.splice(0));
    last = index;
  }
  if (last === null) throw new WrongAnswerError("replaces none of the solution's declarations: a wrong answer is the solution with one of its functions (or constants) changed");

  let program = '';
  let at = 0;
  ours.forEach((part, i) => {
    const start = part.statement.getEnd() - part.text.length;
    program += solution.slice(at, start);
    for (const text of before.get(i) ?? []) program += `${text}\n\n`;
    program += replaced.get(i) ?? part.text;
    // A one-line statement follows its place directly (`const grantedAt = Date.now();` after the grant); more gets a blank line.
    for (const text of after.get(i) ?? []) program += text.includes('\n') ? `\n\n${text}` : `\n${text}`;
    at = part.statement.getEnd();
  });
  program += solution.slice(at);
  if (printer.printFile(source(program)) === printer.printFile(source(solution))) throw new WrongAnswerError('composes into the reference solution itself: it changes nothing');
  return `${header}${program}`;
}

function source(text: string): ts.SourceFile {
  return ts.createSourceFile('program.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** The top-level statements, each with what it declares; comments before `from` (a header) belong to none. */
function parts(text: string, from: number): Part[] {
  const file = source(text);
  return file.statements.map((statement) => {
    const comments = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
    const first = comments.find((c) => c.pos >= from);
    const start = first ? first.pos : statement.getStart(file);
    return { statement, text: text.slice(start, statement.getEnd()), name: declared(statement, file), code: printer.printNode(ts.EmitHint.Unspecified, statement, file) };
  });
}

function declared(statement: ts.Statement, file: ts.SourceFile): string | null {
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) return statement.name ? statement.name.text : null;
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) return statement.name.text;
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => d.name.getText(file)).sort().join(', ');
  if (ts.isImportDeclaration(statement)) return `import ${statement.moduleSpecifier.getText(file)}`;
  return null;
}

/**
 * Which sentences a probe's code names, read from its source (Node, load
 * time): every `__probe.expect/fail/until/say` call must name a key of its
 * adversary's `says` by a literal, with values that are the template's
 * arguments, and every key of `says` must be used. A typo in a key or a value
 * name fails the lesson's load, not a learner's check.
 */
import ts from 'typescript';
import { icuArguments } from './probe-says';

/** Where each call of the probe API puts its key and its values. */
const KEY_AT: Readonly<Record<string, number>> = { expect: 1, fail: 0, until: 2, say: 0 };

export interface ProbeKeyUse {
  key: string;
  /** The values' names when the probe writes them as an object literal (or a function returning one). */
  names: string[] | null;
  line: number;
}

/** The keys a probe names, or why its code cannot be read for them. */
export function probeKeyUses(source: string): { uses: ProbeKeyUse[]; errors: string[] } {
  const file = ts.createSourceFile('probe.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const uses: ProbeKeyUse[] = [];
  const errors: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) && node.expression.expression.text === '__probe') {
      const at = KEY_AT[node.expression.name.text];
      if (at !== undefined) {
        const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        const keyArg = node.arguments[at];
        if (!keyArg || !ts.isStringLiteralLike(keyArg)) errors.push(`line ${line}: __probe.${node.expression.name.text}() names its sentence by a literal key of "says"`);
        else uses.push({ key: keyArg.text, names: valueNames(node.arguments[at + 1]), line });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { uses, errors };
}

function valueNames(arg: ts.Expression | undefined): string[] | null {
  if (arg === undefined) return [];
  let expr: ts.Node = arg;
  if (ts.isArrowFunction(expr)) expr = expr.body;
  while (ts.isParenthesizedExpression(expr)) expr = expr.expression;
  if (!ts.isObjectLiteralExpression(expr)) return null;
  const names: string[] = [];
  for (const p of expr.properties) {
    if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) names.push(p.name.text);
    else return null; // a spread or a computed name: cannot be read here
  }
  return names.sort();
}

/** What is wrong between a probe's code and its `says`: unknown keys, unused ones, values that are not the template's arguments. */
export function probeSaysErrors(source: string, says: Readonly<Record<string, string>>): string[] {
  const { uses, errors } = probeKeyUses(source);
  for (const use of uses) {
    const template = says[use.key];
    if (template === undefined) {
      errors.push(`line ${use.line}: the probe says "${use.key}", which "says" lacks`);
      continue;
    }
    if (use.names === null) continue;
    const wanted = icuArguments(template);
    if (wanted.join(',') !== use.names.join(',')) errors.push(`line ${use.line}: "${use.key}" is given {${use.names.join(', ')}} but its template names {${wanted.join(', ')}}`);
  }
  for (const key of Object.keys(says)) if (!uses.some((u) => u.key === key)) errors.push(`"${key}" is never said by the probe`);
  return errors;
}

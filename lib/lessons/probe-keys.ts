/**
 * Which sentences a probe's code names, read from its source (Node, load
 * time): every `__probe.expect/fail/until/say` call must name a key of its
 * adversary's `says` by a literal, with values that are the template's
 * arguments, and every key of `says` must be used. A typo in a key or a value
 * name fails the lesson's load, not a learner's check.
 */
import { parse, type Node } from 'acorn';
import { icuArguments } from './probe-says';

/** Where each call of the probe API puts its key and its values. */
const KEY_AT: Readonly<Record<string, number>> = { expect: 1, fail: 0, until: 2, say: 0 };

export interface ProbeKeyUse {
  key: string;
  /** The values' names when the probe writes them as an object literal (or a function returning one). */
  names: string[] | null;
  line: number;
}

type AnyNode = Node & Record<string, unknown>;

const isNode = (v: unknown): v is AnyNode => v !== null && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string';

/** Every node under `node`, depth first (acorn's tree, read without a walker). */
function* nodes(node: AnyNode): Generator<AnyNode> {
  yield node;
  for (const [field, value] of Object.entries(node)) {
    if (field === 'loc') continue;
    if (Array.isArray(value)) for (const v of value) if (isNode(v)) yield* nodes(v);
    if (isNode(value)) yield* nodes(value);
  }
}

/** The keys a probe names, or why its code cannot be read for them. (acorn, as the grader reads programs: probes are plain JavaScript.) */
export function probeKeyUses(source: string): { uses: ProbeKeyUse[]; errors: string[] } {
  const uses: ProbeKeyUse[] = [];
  const errors: string[] = [];
  let program: AnyNode;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true, locations: true }) as unknown as AnyNode;
  } catch (error) {
    return { uses, errors: [`the probe does not parse: ${(error as Error).message}`] };
  }
  for (const node of nodes(program)) {
    if (node.type !== 'CallExpression') continue;
    const callee = node.callee as AnyNode;
    if (callee.type !== 'MemberExpression' || (callee.object as AnyNode).type !== 'Identifier' || (callee.object as { name: string }).name !== '__probe') continue;
    const method = (callee.property as { name?: string }).name ?? '';
    const at = KEY_AT[method];
    if (at === undefined) continue;
    const args = node.arguments as AnyNode[];
    const line = (node.loc as { start: { line: number } }).start.line;
    const keyArg = args[at];
    if (!keyArg || keyArg.type !== 'Literal' || typeof keyArg.value !== 'string') errors.push(`line ${line}: __probe.${method}() names its sentence by a literal key of "says"`);
    else uses.push({ key: keyArg.value, names: valueNames(args[at + 1]), line });
  }
  return { uses, errors };
}

function valueNames(arg: AnyNode | undefined): string[] | null {
  if (arg === undefined) return [];
  const expr = arg.type === 'ArrowFunctionExpression' ? (arg.body as AnyNode) : arg;
  if (expr.type !== 'ObjectExpression') return null;
  const names: string[] = [];
  for (const p of expr.properties as AnyNode[]) {
    const key = p.key as AnyNode | undefined;
    if (p.type !== 'Property' || p.computed || !key) return null; // a spread or a computed name: cannot be read here
    if (key.type === 'Identifier') names.push(key.name as string);
    else if (key.type === 'Literal' && typeof key.value === 'string') names.push(key.value);
    else return null;
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

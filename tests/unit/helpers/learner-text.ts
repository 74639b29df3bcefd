/**
 * The text a learner reads, gathered from where it is written: the lessons'
 * files (prose, quiz, scenario texts, the programs shown in the editor), the
 * reference page (server/sandbox/README.md up to "For developers"), and the
 * string literals and JSX text of the pages, components and server messages.
 * Keys and identifiers are left out: `seed: 11` in a scenario is data, not words.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parse as parseYaml } from 'yaml';

export interface Passage {
  /** Where the words are: a path, and for data files the field's path. */
  where: string;
  text: string;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function walk(dir: string, keep: (file: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(full, keep);
    return keep(full) ? [full] : [];
  });
}

/** Every string value of a parsed JSON or YAML document, with its path (keys are not words). */
export function stringValues(value: unknown, where: string): Passage[] {
  if (typeof value === 'string') return [{ where, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringValues(v, `${where}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringValues(v, `${where}.${k}`));
  return [];
}

/** The words of a TypeScript or JavaScript file: string literals, template text and JSX text (comments: see `withComments`). */
export function codeWords(file: string, source: string): Passage[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const out: Passage[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) || ts.isJsxText(node)) {
      // An import path or an identifier-like key ('seed') is not a sentence; a learner reads only text with a space in it.
      if (/\s/.test(node.text.trim()) && !ts.isImportDeclaration(node.parent) && !ts.isExternalModuleReference(node.parent)) {
        out.push({ where: `${path.relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, text: node.text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Everything a lesson folder shows: its text and front matter's words, hints, quiz, scenarios, adversaries, and whole programs (their comments are read in the editor). */
export function lessonPassages(lessonsDir = path.join(ROOT, 'lessons')): Passage[] {
  const folders = fs.readdirSync(lessonsDir, { withFileTypes: true }).filter((e) => e.isDirectory() && /^\d\d-/.test(e.name));
  return folders.flatMap((folder) =>
    walk(path.join(lessonsDir, folder.name), () => true).flatMap((file): Passage[] => {
      const where = path.relative(ROOT, file);
      const text = fs.readFileSync(file, 'utf8');
      if (file.endsWith('.json')) return stringValues(JSON.parse(text), where);
      if (file.endsWith('.mdx')) {
        const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
        if (!match) return [{ where, text }];
        return [...stringValues(parseYaml(match[1]!), `${where} front matter`), { where, text: match[2]! }];
      }
      if (/\.(ts|md)$/.test(file)) return [{ where, text }];
      return [];
    }),
  );
}

/** The learners' reference page: the sandbox README up to its developers' part. */
export function referencePassages(readme = path.join(ROOT, 'server/sandbox/README.md')): Passage[] {
  const text = fs.readFileSync(readme, 'utf8');
  const end = text.indexOf('## For developers');
  return [{ where: path.relative(ROOT, readme), text: end === -1 ? text : text.slice(0, end) }];
}

/** The words of the pages, components, shared library and server (messages, console lines, titles). */
export function sourcePassages(dirs = ['app', 'components', 'lib', 'server']): Passage[] {
  return dirs.flatMap((d) =>
    walk(path.join(ROOT, d), (f) => /\.(tsx?|js)$/.test(f) && !f.endsWith('.d.ts')).flatMap((f) => codeWords(f, fs.readFileSync(f, 'utf8'))),
  );
}

/**
 * "seed" means a random seed only, and says so: every "seed"/"seeds" in a
 * learner's text is "random seed(s)". The source articles are named for what
 * they are (the Arabic production write-up, the Norwegian course lesson).
 * Returns each offending use with a little context.
 */
export function bareSeeds(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\bseeds?\b/gi)) {
    const before = text.slice(Math.max(0, m.index - 7), m.index);
    if (/random\s$/i.test(before)) continue;
    found.push(text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, ' '));
  }
  return found;
}

/**
 * "seed" used for a source article anywhere in the project, code comments,
 * tests and file names included: "the Norwegian seed", "the seeds' styles",
 * "seed article".
 */
export function articleSeeds(text: string): string[] {
  const pattern = /\b(?:arabic|norwegian)[\s_-]+seeds?\b|\bseeds['’](?=\s)|\bseed[\s_-]+(?:articles?|texts?|posts?|styles?)\b/gi;
  return [...text.matchAll(pattern)].map((m) => text.slice(Math.max(0, m.index - 30), m.index + m[0].length + 30).replace(/\s+/g, ' '));
}

/**
 * ARCHITECTURE.md is read by a newcomer in ten minutes, and every "where" it and the READMEs beside the code give
 * is a place that exists: a doc that names a moved or deleted file misleads the next reader, as ARCHITECTURE once
 * cited a test that never existed.
 *
 * A path is a backticked span that contains a `/` or ends in a known extension, with no spaces; it may be written
 * from the repository's root or from the doc's own folder (a README names its neighbours), and may leave out the
 * module's extension (`lib/commands`). Spans with <placeholders>, globs, alternatives or variables are skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const LIMIT_BYTES = 10_000;

/** The architecture and the READMEs written beside the code for it (issue 32). */
const DOCS = [
  'ARCHITECTURE.md',
  'components/README.md',
  'lib/README.md',
  'messages/README.md',
  'server/classroom/README.md',
  'server/cluster/README.md',
  'server/experiment/README.md',
  'server/grading/README.md',
  'server/lab/README.md',
  'server/nemesis/README.md',
  'server/ops/README.md',
  'server/realtime/README.md',
  'server/runs/README.md',
  'server/scenarios/README.md',
  'server/sandbox/host/README.md',
];

/** Every markdown doc of the repository, for the one rule that holds for all: no doc cites a missing test. */
function allDocs(dir = ROOT, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || ['node_modules', 'test-results', 'playwright-report'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) allDocs(full, found);
    else if (entry.name.endsWith('.md')) found.push(path.relative(ROOT, full));
  }
  return found;
}

const EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|json|md|mdx|css|yml|yaml|sh)$/;
const SKIP = /[<>*{}|$…\s]|^\/|^https?:|^@\//;

/** The backticked spans of `text` that name a repository path. */
function citedPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
  return spans.filter((span) => (span.includes('/') || EXTENSIONS.test(span)) && !SKIP.test(span) && !span.includes(':'));
}

const CANDIDATE_SUFFIXES = ['', '.ts', '.tsx', '.js', '/index.ts'];

function exists(cited: string, doc: string): boolean {
  const clean = cited.replace(/\/$/, '');
  const bases = [ROOT, path.dirname(path.join(ROOT, doc))];
  return bases.some((base) => CANDIDATE_SUFFIXES.some((suffix) => fs.existsSync(path.join(base, clean + suffix))));
}

describe('ARCHITECTURE.md', () => {
  it(`is at most ${LIMIT_BYTES} bytes`, () => {
    expect(fs.statSync(path.join(ROOT, 'ARCHITECTURE.md')).size).toBeLessThanOrEqual(LIMIT_BYTES);
  });
});

describe.each(DOCS)('%s', (doc) => {
  it('exists and cites only paths that exist', () => {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    const missing = citedPaths(text).filter((cited) => !exists(cited, doc));
    expect(missing.map((cited) => `${doc}: ${cited}`)).toEqual([]);
  });
});

describe('every markdown doc', () => {
  it('cites only tests that exist', () => {
    const missing = allDocs().flatMap((doc) =>
      citedPaths(fs.readFileSync(path.join(ROOT, doc), 'utf8'))
        .filter((cited) => /(^|\/)(tests|e2e)\//.test(cited) && !exists(cited, doc))
        .map((cited) => `${doc}: ${cited}`),
    );
    expect(missing).toEqual([]);
  });

  it('the path rule reads a doc as meant', () => {
    expect(citedPaths('`lib/commands` `a.ts` `run:*` `POST /identity` `messages/<ns>.json` `/proc/self/fd` `x`')).toEqual([
      'lib/commands',
      'a.ts',
    ]);
  });
});

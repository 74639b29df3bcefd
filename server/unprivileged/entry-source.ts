/**
 * The source of a process the lab server starts as another user, as one
 * self-contained CommonJS program: the entry and everything it imports
 * (our TypeScript and its npm packages), bundled by esbuild in memory.
 *
 * Why: an unprivileged process must never need to read the checkout. The
 * checkout may sit where only its owner can enter (root's home is 0700, so is
 * any `mktemp -d`); a process started as uid 65534 with `--import tsx` could
 * not even load tsx there. The bundle goes to the child on its standard input
 * (`node -`), the way a node's config goes to redis-server: nothing is written
 * to disk, so there is no file for anyone else to read or change either.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One bundle per entry per server process: an entry's code does not change while the server runs. */
const bundles = new Map<string, string>();

/** A bundle that could not be made is a broken install, not a learner's problem: say which entry and why. */
export class EntryBundleError extends Error {}

/**
 * The entry (a path inside the project) as one CommonJS program. Synchronous
 * and cached: ~50 ms once per entry, at the server's start.
 */
export function entrySource(entry: string): string {
  const absolute = path.resolve(PROJECT_DIR, entry);
  const cached = bundles.get(absolute);
  if (cached !== undefined) return cached;
  let source: string;
  try {
    const result = buildSync({
      entryPoints: [absolute],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      target: `node${process.versions.node.split('.')[0]}`,
      // The project's `@/` paths come from tsconfig.json, as they do for tsc and Next.
      tsconfig: path.join(PROJECT_DIR, 'tsconfig.json'),
      absWorkingDir: PROJECT_DIR,
      // A CommonJS bundle has no import.meta; packages that build a require() from import.meta.url (QuickJS's
      // emscripten glue does, for node's own modules) get the root instead of a path into the checkout.
      define: { 'import.meta.url': '"file:///"' },
      logLevel: 'silent',
      legalComments: 'none',
    });
    const output = result.outputFiles[0];
    if (!output) throw new Error('esbuild produced no output');
    source = output.text;
  } catch (error) {
    throw new EntryBundleError(`could not bundle ${path.relative(PROJECT_DIR, absolute)}: ${(error as Error).message}`);
  }
  bundles.set(absolute, source);
  return source;
}

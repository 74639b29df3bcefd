// `next build` when the production build is missing or was made from other sources.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { info } from './log.mjs';
import { inRepo, localBin, repoRoot } from './paths.mjs';
import { runStep } from './steps.mjs';

/** What the browser build is made from (server/ is run from source by tsx, not built, except the reference page's texts). */
export const BUILD_INPUTS = [
  'app',
  'components',
  'lib',
  'lessons',
  'public',
  // The languages: catalogues, routing, the proxy that picks a page's language, the typed keys.
  'messages',
  'i18n',
  'proxy.ts',
  'global.d.ts',
  // The reference page is rendered from these at build time.
  'server/sandbox/README.md',
  'server/sandbox/reference.ar.md',
  'server/sandbox/reference.nb.md',
  'next.config.js',
  'next.config.mjs',
  'next.config.ts',
  'postcss.config.mjs',
  'postcss.config.js',
  'package-lock.json',
  'tsconfig.json',
];

const BUILD_ID = inRepo('.next', 'BUILD_ID');
const SOURCE_HASH = inRepo('.next', 'locklab-source-hash');

function hashEntry(hash, relative) {
  const absolute = path.join(repoRoot, relative);
  if (!existsSync(absolute)) {
    // Adding a file that was absent must change the hash too.
    hash.update(`absent ${relative}\0`);
    return;
  }
  const entries = readdirIfDirectory(absolute);
  if (entries === undefined) {
    hash.update(`file ${relative}\0`);
    hash.update(readFileSync(absolute));
    hash.update('\0');
    return;
  }
  hash.update(`dir ${relative}\0`);
  for (const name of entries.sort()) hashEntry(hash, path.join(relative, name));
}

function readdirIfDirectory(absolute) {
  try {
    return readdirSync(absolute);
  } catch (error) {
    if (error.code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * A hash of the contents (not the times: a fresh clone or checkout touches
 * every file) of the build inputs, plus the NEXT_PUBLIC_* variables that Next
 * inlines into the bundle at build time.
 */
export function sourceHash() {
  const hash = createHash('sha256');
  for (const input of BUILD_INPUTS) hashEntry(hash, input);
  const publicEnv = Object.keys(process.env).filter((key) => key.startsWith('NEXT_PUBLIC_')).sort();
  for (const key of publicEnv) hash.update(`env ${key}=${process.env[key]}\0`);
  return hash.digest('hex');
}

/** Why a build is needed, or undefined when the existing one is current. */
export function buildStaleness(currentHash = sourceHash()) {
  if (!existsSync(BUILD_ID)) return 'no production build yet';
  if (!existsSync(SOURCE_HASH)) return 'the build was not made by this script';
  if (readFileSync(SOURCE_HASH, 'utf8').trim() !== currentHash) return 'sources changed since the last build';
  return undefined;
}

export async function ensureBuild({ force = false } = {}) {
  // Hashed before building, so an edit made during the build triggers the next one.
  const hash = sourceHash();
  const reason = force ? 'requested' : buildStaleness(hash);
  if (!reason) {
    info('production build: up to date');
    return;
  }
  info(`production build: ${reason}, running \`next build\``);
  // A build that fails half-way leaves a half-written .next; without the old
  // hash it can never pass for current, even if the sources are reverted.
  rmSync(SOURCE_HASH, { force: true });
  await runStep('next build', process.execPath, [localBin('next'), 'build'], {
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  });
  writeFileSync(SOURCE_HASH, `${hash}\n`);
}

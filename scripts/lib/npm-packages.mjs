// `npm ci` when node_modules is missing or was installed from another package-lock.json.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { info, warn } from './log.mjs';
import { inRepo } from './paths.mjs';
import { runStep } from './steps.mjs';

const LOCKFILE = inRepo('package-lock.json');
const STAMP = inRepo('node_modules', '.locklab-lockfile-sha256');
// npm's own record of what is in node_modules ("hidden lockfile").
const INSTALLED = inRepo('node_modules', '.package-lock.json');

function lockfileHash() {
  return createHash('sha256').update(readFileSync(LOCKFILE)).digest('hex');
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Whether npm's hidden lockfile lists every package of package-lock.json at
 * the same version. Packages for other platforms (optional, with os/cpu
 * constraints) are never installed, so their absence is fine. This covers a
 * node_modules installed by hand (`npm ci` / `npm install`), which has no stamp.
 */
export function installedMatchesLockfile(lock, installed) {
  const wanted = lock?.packages;
  const present = installed?.packages;
  if (!wanted || !present) return false;
  for (const [key, meta] of Object.entries(wanted)) {
    if (!key.startsWith('node_modules/') || meta.link) continue;
    const have = present[key];
    if (!have) {
      if (meta.optional === true) continue;
      return false;
    }
    if (have.version !== meta.version) return false;
  }
  return true;
}

export function npmPackagesAreFresh() {
  if (!existsSync(INSTALLED)) return false;
  const hash = lockfileHash();
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === hash) return true;
  if (!installedMatchesLockfile(readJson(LOCKFILE), readJson(INSTALLED))) return false;
  writeStamp(hash);
  return true;
}

function writeStamp(hash) {
  try {
    writeFileSync(STAMP, `${hash}\n`);
  } catch (error) {
    // Only a cache: without it the next run compares the lockfiles again.
    warn(`could not write ${STAMP}: ${error.message}`);
  }
}

function npmCommand() {
  // Under `npm start` / `npm test`, npm tells us which npm runs us.
  const npmCli = process.env.npm_execpath;
  if (npmCli && /npm-cli\.js$/.test(npmCli) && existsSync(npmCli)) return [process.execPath, [npmCli]];
  return ['npm', []];
}

export async function ensureNpmPackages() {
  if (npmPackagesAreFresh()) {
    info('npm packages: up to date');
    return;
  }
  info('npm packages: missing or stale, running `npm ci`');
  const hash = lockfileHash();
  const [command, prefix] = npmCommand();
  // --include=dev: the build needs typescript and the tests need vitest and
  // Playwright even when NODE_ENV=production is set in the caller's shell.
  await runStep('npm ci', command, [...prefix, 'ci', '--include=dev', '--no-audit', '--no-fund']);
  writeStamp(hash);
}

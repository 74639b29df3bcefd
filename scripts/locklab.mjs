#!/usr/bin/env node
// The commands behind `npm start`, `npm test`, `npm run dev` and `npm run build`.
// Plain Node with no npm dependencies: it runs before `npm ci` on a fresh clone.
//
//   node scripts/locklab.mjs setup [--test]   install what is missing (npm ci, apt-get)
//   node scripts/locklab.mjs build [--force]  next build, when missing or stale
//   node scripts/locklab.mjs start            setup + build + serve (NODE_ENV=production)
//   node scripts/locklab.mjs dev              setup + serve with Next in development mode
//   node scripts/locklab.mjs test             setup --test + (build beside tsc) + vitest + Playwright
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { info, LocklabError } from './lib/log.mjs';
import { ensureBuild } from './lib/next-build.mjs';
import { checkNodeVersion } from './lib/node-version.mjs';
import { ensureNpmPackages } from './lib/npm-packages.mjs';
import { localBin } from './lib/paths.mjs';
import { exitStatusOf, runForeground } from './lib/processes.mjs';
import { ensureSystemPackages } from './lib/system-packages.mjs';
import { countPlaywright, countRun, countVitest, slowestVitestFiles } from './lib/test-counts.mjs';

const LAB_PACKAGES = ['redis-server'];
// postgresql: the store's tests run against Debian's server too (tests/helpers/postgres-server.ts starts its own on a free port).
const TEST_PACKAGES = [...LAB_PACKAGES, 'chromium', 'docker-compose', 'postgresql'];

async function setup({ forTests }) {
  checkNodeVersion();
  // System packages first: when one is missing and we are not root, say so
  // before spending a minute on npm ci.
  await ensureSystemPackages(forTests ? TEST_PACKAGES : LAB_PACKAGES);
  await ensureNpmPackages();
}

/** Runs the lab server in the foreground and exits as it exits. */
async function serve(nodeEnv) {
  info(`starting the lab server (NODE_ENV=${nodeEnv})`);
  const outcome = await runForeground(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: { ...process.env, NODE_ENV: nodeEnv, NEXT_TELEMETRY_DISABLED: '1' },
    ownProcessGroup: true,
  });
  return exitStatusOf(outcome);
}

/** Runs a test tool that must not stop the ones after it; stops everything if interrupted. */
async function runTool(name, args, env) {
  const outcome = await runForeground(process.execPath, [localBin(name), ...args], { env: { ...process.env, ...env } });
  if (outcome.interrupted) throw new LocklabError(`${name}: interrupted.`, exitStatusOf(outcome), { interrupted: true });
  return outcome;
}

function describe(counts) {
  const note = counts.note ? ` (${counts.note})` : '';
  return `${counts.passed} passed / ${counts.failed} failed / ${counts.skipped} skipped${note}`;
}

/**
 * A failed build must not hide the other results: the type check and vitest
 * still run (they do not need the build); Playwright, which does, is skipped.
 */
async function buildForTests() {
  try {
    await ensureBuild();
    return true;
  } catch (error) {
    if (!(error instanceof LocklabError) || error.interrupted) throw error;
    info(`${error.message} End-to-end tests will be skipped.`);
    return false;
  }
}

/**
 * The build and the type check side by side: neither reads what the other writes (tsconfig excludes .next), tsc
 * keeps one core busy and `next build` spends much of its time on one, so together they take about as long as
 * the build alone (~1 min less of the suite on two cores). Both finish before anything else starts, so the
 * timing-sensitive tests after them never share the machine with either.
 */
async function buildAndTypecheck() {
  info('production build and type check (tsc --noEmit -p .), side by side');
  const [build, typecheck] = await Promise.allSettled([buildForTests(), runTool('tsc', ['--noEmit', '-p', '.'])]);
  // An interruption (or an unexpected error) in either stops the run, after both have ended.
  if (build.status === 'rejected') throw build.reason;
  if (typecheck.status === 'rejected') throw typecheck.reason;
  return { built: build.value, typecheck: typecheck.value };
}

/** Wall time of one phase of `npm test`, for the summary: the suite's budget is per whole run, so each phase shows its share. */
async function timed(phases, name, work) {
  const began = performance.now();
  try {
    return await work();
  } finally {
    phases.push(`${name} ${Math.round((performance.now() - began) / 1000)} s`);
  }
}

async function test() {
  const phases = [];
  await timed(phases, 'setup', () => setup({ forTests: true }));
  const { built, typecheck } = await timed(phases, 'build + type check', buildAndTypecheck);
  const reports = mkdtempSync(path.join(tmpdir(), 'locklab-test-'));
  try {
    info('unit + integration tests: vitest run');
    const vitestReport = path.join(reports, 'vitest.json');
    const vitest = countRun(
      countVitest,
      vitestReport,
      await timed(phases, 'vitest', () => runTool('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`])),
    );
    const slowest = slowestVitestFiles(vitestReport);
    if (slowest.length > 0) info(`slowest test files:\n${slowest.join('\n')}`);

    let playwright = { passed: 0, failed: 0, skipped: 0, note: 'not run: no production build' };
    if (built) {
      info('end-to-end tests: playwright test');
      const playwrightReport = path.join(reports, 'playwright.json');
      playwright = countRun(
        countPlaywright,
        playwrightReport,
        await timed(phases, 'playwright', () =>
          runTool('playwright', ['test', '--reporter=list,json'], {
            PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport,
            NEXT_TELEMETRY_DISABLED: '1',
          }),
        ),
      );
    }

    const typecheckFailed = typecheck.code !== 0 || typecheck.signal !== null;
    info(`build:      ${built ? 'ok' : 'FAILED (counted as 1 failure)'}`);
    info(`type check: ${typecheckFailed ? 'FAILED (counted as 1 failure)' : 'ok'}`);
    info(`vitest:     ${describe(vitest)}`);
    info(`playwright: ${describe(playwright)}`);
    info(`wall time:  ${phases.join(', ')}`);
    const passed = vitest.passed + playwright.passed;
    const failed = vitest.failed + playwright.failed + (typecheckFailed ? 1 : 0) + (built ? 0 : 1);
    if (passed + failed === 0) info('no test ran: that is a failure too');
    console.log(`${passed} passed, ${failed} failed`);
    return failed > 0 || passed === 0 ? 1 : 0;
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}

const USAGE = 'usage: node scripts/locklab.mjs <setup [--test] | build [--force] | start | dev | test>';

async function main([command, ...flags]) {
  switch (command) {
    case 'setup':
      await setup({ forTests: flags.includes('--test') });
      return 0;
    case 'build':
      checkNodeVersion();
      await ensureBuild({ force: flags.includes('--force') });
      return 0;
    case 'start':
      await setup({ forTests: false });
      await ensureBuild();
      return serve('production');
    case 'dev':
      await setup({ forTests: false });
      return serve('development');
    case 'test':
      return test();
    default:
      throw new LocklabError(USAGE, 2);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof LocklabError)) throw error;
  console.error(`\n[locklab] ${error.message}`);
  process.exitCode = error.exitCode;
}

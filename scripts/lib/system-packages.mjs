// Debian packages the lab needs, installed with apt-get when missing and we are root.
import { accessSync, constants, existsSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { info, LocklabError } from './log.mjs';
import { runStep } from './steps.mjs';

/**
 * Each package, the file whose presence means it is installed, and packages
 * installed along with it. Installs skip "Recommends" (docker-compose would
 * pull in the whole docker.io engine), so Chromium's fonts are named here:
 * without them screenshots show empty boxes instead of text.
 */
export const SYSTEM_PACKAGES = {
  'redis-server': { command: 'redis-server', with: [] },
  // The Playwright config launches this exact file.
  chromium: { file: '/usr/bin/chromium', with: ['fonts-liberation'] },
  'docker-compose': { command: 'docker-compose', with: [] },
  // The store's tests start Debian's server themselves (tests/helpers/postgres-server.ts): its binary sits under a
  // folder named for its major version.
  postgresql: { present: () => postgresServerInstalled(), with: [] },
};

function postgresServerInstalled() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return false;
  return readdirSync(root).some((version) => isExecutable(path.join(root, version, 'bin', 'postgres')));
}

const APT_GET = '/usr/bin/apt-get';
const POLICY_RC_D = '/usr/sbin/policy-rc.d';

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findCommand(name) {
  // PATH may lack the sbin directories when not root; look there too.
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/local/bin', '/usr/bin', '/usr/sbin', '/bin'];
  return dirs.filter(Boolean).map((dir) => path.join(dir, name)).find(isExecutable);
}

export function isInstalled(pkg) {
  const spec = SYSTEM_PACKAGES[pkg];
  if (!spec) throw new LocklabError(`scripts/lib/system-packages.mjs does not know how to tell whether ${pkg} is installed`);
  if (spec.present) return spec.present();
  return spec.file ? isExecutable(spec.file) : findCommand(spec.command) !== undefined;
}

/**
 * Installing redis-server runs its init script, which would start a system-wide
 * Redis on port 6379 that the lab never uses. Debian's policy-rc.d hook (exit
 * code 101 = "do not start") prevents that; it is added only when the machine
 * has none and removed right after.
 */
async function withServiceStartsHeldBack(action) {
  if (existsSync(POLICY_RC_D)) return action();
  writeFileSync(POLICY_RC_D, '#!/bin/sh\n# Written by Lock Lab (scripts/lib/system-packages.mjs) during apt-get install; removed after.\nexit 101\n', {
    mode: 0o755,
  });
  try {
    return await action();
  } finally {
    unlinkSync(POLICY_RC_D);
  }
}

let aptListsUpdated = false;

export async function ensureSystemPackages(packages) {
  const missing = packages.filter((pkg) => !isInstalled(pkg));
  if (missing.length === 0) {
    info(`system packages: ${packages.join(', ')} present`);
    return;
  }
  const list = missing.join(' ');
  if (!isExecutable(APT_GET)) {
    throw new LocklabError(`Lock Lab needs ${list}, and this machine has no apt-get. Install ${list} with your package manager, then run this again.`);
  }
  if (process.getuid?.() !== 0) {
    throw new LocklabError(`Lock Lab needs ${list}. Install it, then run this again:\n\n    sudo apt-get install ${list}\n`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await withServiceStartsHeldBack(async () => {
    if (!aptListsUpdated) {
      info('apt-get update');
      await runStep('apt-get update', APT_GET, ['update'], { env });
      aptListsUpdated = true;
    }
    const toInstall = missing.flatMap((pkg) => [pkg, ...SYSTEM_PACKAGES[pkg].with]);
    info(`apt-get install ${toInstall.join(' ')}`);
    await runStep(`apt-get install ${list}`, APT_GET, ['install', '-y', '--no-install-recommends', ...toInstall], { env });
  });
  const stillMissing = missing.filter((pkg) => !isInstalled(pkg));
  if (stillMissing.length > 0) {
    throw new LocklabError(`apt-get installed ${list}, but ${stillMissing.join(', ')} is still not where Lock Lab looks for it.`);
  }
}

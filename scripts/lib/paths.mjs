// Where things are, independent of the directory the command is run from.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocklabError } from './log.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function inRepo(...parts) {
  return path.join(repoRoot, ...parts);
}

/**
 * The JavaScript file behind node_modules/.bin/<name>. Running it with this
 * very Node (process.execPath) avoids npx (which may reach for the network)
 * and the `#!/usr/bin/env node` shebang (which may find another Node).
 */
export function localBin(name) {
  const link = inRepo('node_modules', '.bin', name);
  if (!existsSync(link)) {
    throw new LocklabError(`node_modules/.bin/${name} is missing; run \`npm ci\` (or \`npm start\`, which does it).`);
  }
  return realpathSync(link);
}

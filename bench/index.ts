/**
 * `npm run bench`: every benchmark, one after another (they share two cores,
 * so running them in parallel would measure each other), each printing a table.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file)], { stdio: 'inherit', cwd: path.resolve(here, '..') });
  if (result.status !== 0) {
    failed++;
    console.error(`\n${file} failed (exit ${result.status ?? result.signal})`);
  }
}
process.exit(failed ? 1 : 0);

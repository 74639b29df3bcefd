/**
 * `npm run bench`: every benchmark, one after another (they share two cores,
 * so running them in parallel would measure each other), each printing a table.
 * Names first pick the benchmarks; from the first `--option` on, the rest is
 * handed to each of them (`npm run bench -- grading --lessons redlock`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('--'));
const only = firstOption === -1 ? args : args.slice(0, firstOption);
const options = firstOption === -1 ? [] : args.slice(firstOption);
const files = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
// The benchmarks' lab servers run without a store: they measure the labs, and the user's data folder (PGlite) serves
// one server at a time. LOCKLAB_STORE set by the caller wins.
process.env.LOCKLAB_STORE ??= '0';
let failed = 0;
for (const file of files) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file), ...options], { stdio: 'inherit', cwd: path.resolve(here, '..') });
  if (result.status !== 0) {
    failed++;
    console.error(`\n${file} failed (exit ${result.status ?? result.signal})`);
  }
}
process.exit(failed ? 1 : 0);

import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/**
 * Tests whose verdicts depend on timing (learner code racing for a lock on
 * real nodes, with faults at given milliseconds) run after the main group,
 * in groups of their own (vitest's sequence.groupOrder), so the test files
 * beside them cannot starve them of the two cores:
 *  - runs: one file at a time;
 *  - lessons: the two lesson files together (two labs at once, no more);
 *  - isolated: the hostile programs and the attacks on a shared server
 *    (tests/integration/attacks), which measure how a bystander's run and
 *    the main thread's event loop fare and would otherwise measure the
 *    other test files.
 */
const RUNS = [
  'tests/integration/runs.test.ts',
  'tests/integration/classroom.test.ts',
  'tests/integration/sandbox.test.ts',
  'tests/integration/sandbox-cpu.test.ts',
  'tests/integration/run-early-end.test.ts',
  // 1,250 connection attempts from one run, counted on the server's sockets: beside another file on two
  // busy cores its program once went past the test's 30 s (0.4 s alone).
  'tests/integration/sandbox-connections.test.ts',
];
const LESSONS = ['tests/integration/lessons/*.test.ts'];
const ISOLATED = ['tests/integration/sandbox-hostile.test.ts', 'tests/integration/attacks/*.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    // Integration tests start real redis-server processes; two cores, so keep the fan-out modest.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    environment: 'node',
    globalSetup: ['tests/setup/global.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'main', include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'], exclude: [...RUNS, ...LESSONS, ...ISOLATED] },
      },
      {
        extends: true,
        test: { name: 'runs', include: RUNS, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'lessons', include: LESSONS, sequence: { groupOrder: 2 } },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, fileParallelism: false, sequence: { groupOrder: 3 } },
      },
    ],
  },
});

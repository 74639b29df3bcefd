import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/**
 * Two groups run after the main one (vitest's sequence.groupOrder), each on
 * its own: the lessons (timing-based scenarios: two labs at a time, no more,
 * on two cores) and the hostile programs, which measure the main thread's
 * event-loop lag and would otherwise measure the other test files.
 */
const LESSONS = ['tests/integration/lessons/*.test.ts'];
const ISOLATED = ['tests/integration/sandbox-hostile.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    // Integration tests start real redis-server processes; two cores, so keep the fan-out modest.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    environment: 'node',
    projects: [
      {
        extends: true,
        test: { name: 'main', include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'], exclude: [...LESSONS, ...ISOLATED] },
      },
      {
        extends: true,
        test: { name: 'lessons', include: LESSONS, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, sequence: { groupOrder: 2 } },
      },
    ],
  },
});

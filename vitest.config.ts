import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/**
 * Hostile-program tests measure the main thread's event-loop lag while
 * learner code misbehaves; on two cores, other test files running beside
 * them would be what they measure. They run in a group of their own, after
 * the rest (vitest's sequence.groupOrder).
 */
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
        test: { name: 'main', include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'], exclude: ISOLATED },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, sequence: { groupOrder: 1 } },
      },
    ],
  },
});

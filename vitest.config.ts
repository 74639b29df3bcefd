import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // Integration tests start real redis-server processes; two cores, so keep the fan-out modest.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    environment: 'node',
  },
});

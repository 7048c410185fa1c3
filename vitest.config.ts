import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // e2e tests drive the built binary and tmux; they share ports and terminals poorly under heavy parallelism.
    maxWorkers: 2,
  },
});

import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Slow reliability cases run only in `npm run test:reliability` (vitest.long.config.ts).
    exclude: [...configDefaults.exclude, 'test/**/*.long.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // e2e tests drive the built binary and tmux; they share ports and terminals poorly under heavy parallelism.
    maxWorkers: 2,
  },
});

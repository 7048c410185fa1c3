import { defineConfig } from 'vitest/config';

/**
 * The long reliability run (`npm run test:reliability`): the swap race 1,000 times (MCA_RACE_RUNS) and the slow
 * cases kept out of `npm test` (test/reliability/long/*.long.test.ts, e.g. the 600 MB session file).
 */
export default defineConfig({
  test: {
    include: ['test/reliability/swap-race.test.ts', 'test/reliability/long/**/*.long.test.ts'],
    environment: 'node',
    testTimeout: 900_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
  },
});

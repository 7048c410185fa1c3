import { defineConfig } from 'vitest/config';

/**
 * The long reliability run (`npm run test:reliability`): the swap race 1,000 times (MCA_RACE_RUNS), the Bash rule
 * engine's differential test against bash 5,000 times (MCA_BASH_FUZZ_RUNS; the custom-command quoting test a third
 * of that) and the slow cases kept out of `npm test` (test/reliability/long/*.long.test.ts, e.g. the 600 MB
 * session file).
 */
export default defineConfig({
  test: {
    include: [
      'test/reliability/swap-race.test.ts',
      'test/permissions/bash-differential.property.test.ts',
      'test/commands/quote-command-line.test.ts',
      'test/reliability/long/**/*.long.test.ts',
    ],
    environment: 'node',
    // The tests talk to loopback fakes; a proxy set on the machine (CI behind a corporate proxy) must not carry
    // them. Empty counts as unset for mca's transport.
    env: { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', NO_PROXY: '', no_proxy: '' },
    testTimeout: 900_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
  },
});

import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Slow reliability cases run only in `npm run test:reliability` (vitest.long.config.ts).
    exclude: [...configDefaults.exclude, 'test/**/*.long.test.ts'],
    environment: 'node',
    // The tests talk to loopback fakes; a proxy set on the machine (CI behind a corporate proxy) must not carry
    // them. Empty counts as unset for mca's transport.
    env: { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', NO_PROXY: '', no_proxy: '' },
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // e2e tests drive the built binary and tmux; they share ports and terminals poorly under heavy parallelism.
    maxWorkers: 2,
  },
});

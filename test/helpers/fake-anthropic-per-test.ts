/**
 * One loopback fake Anthropic server per test: `serve(script)` starts it (closing one a test started before), and
 * it is closed after each test. `url()` is '' while none runs, so an env built before `serve` points nowhere.
 */
import { afterEach } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from './fake-anthropic-server.js';

export interface FakeAnthropicPerTest {
  serve(script: FakeStep[]): Promise<FakeAnthropic>;
  url(): string;
}

export function fakeAnthropicPerTest(): FakeAnthropicPerTest {
  let server: FakeAnthropic | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    async serve(script) {
      await server?.close();
      server = await startFakeAnthropic(script);
      return server;
    },
    url: () => server?.url ?? '',
  };
}

/**
 * The credential headers the built binary sends to the (loopback fake) Anthropic API, as the Anthropic API and
 * Claude Code do: ANTHROPIC_API_KEY as `x-api-key` (no Authorization header), ANTHROPIC_AUTH_TOKEN as
 * `Authorization: Bearer` (no x-api-key).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const SECRET = 'sk-ant-test-header-0123456789';
let api: FakeAnthropic | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function headersFor(env: Record<string, string>) {
  const project = tempProject('mca-key-header-');
  api = await startFakeAnthropic([{ text: 'ok' }]);
  const result = await runMca(['-p', 'hi'], {
    cwd: project.root,
    env: { ANTHROPIC_BASE_URL: api.url, MCA_HOME: project.home, HOME: project.home, ...env },
  });
  expect(result.code, result.stderr).toBe(0);
  return api.requests[0]?.headers ?? {};
}

describe('credential headers through the binary', () => {
  it('sends ANTHROPIC_API_KEY as x-api-key and no Authorization header', async () => {
    const headers = await headersFor({ ANTHROPIC_API_KEY: SECRET });
    expect(headers['x-api-key']).toBe(SECRET);
    expect(headers.authorization).toBeUndefined();
  });

  it('sends ANTHROPIC_AUTH_TOKEN as Authorization: Bearer and no x-api-key', async () => {
    const headers = await headersFor({ ANTHROPIC_AUTH_TOKEN: SECRET });
    expect(headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(headers['x-api-key']).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/config.js';
import { createProvider, MissingApiKeyError } from '../../src/providers/create-provider.js';
import { complete } from '../../src/providers/types.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic-server.js';

const config = validateConfig({ mcaHome: '/tmp/unused-mca-home' });

describe('createProvider', () => {
  it('refuses a missing or blank key with MISSING_API_KEY and the exact message', async () => {
    for (const apiKey of [undefined, '  ']) {
      const attempt = createProvider(config, { apiKey });
      await expect(attempt).rejects.toBeInstanceOf(MissingApiKeyError);
      await expect(attempt).rejects.toMatchObject({
        code: 'MISSING_API_KEY',
        message: 'ANTHROPIC_API_KEY is not set. Export it (or put it in your shell profile) and run mca again.',
      });
    }
  });

  it('builds an Anthropic provider that talks to the configured base URL', async () => {
    const server = await startFakeAnthropic([{ text: 'hello there' }], { apiKey: 'sk-test' });
    try {
      const provider = await createProvider({ ...config, baseUrl: server.url }, { apiKey: 'sk-test' });
      expect(provider.name).toBe('anthropic');
      const result = await complete(
        provider,
        { model: 'claude-x', system: [], user: [{ text: 'hi' }], maxTokens: 50 },
        new AbortController().signal,
      );
      expect(result.text).toBe('hello there');
      expect(server.requests[0]?.body.model).toBe('claude-x');
    } finally {
      await server.close();
    }
  });
});

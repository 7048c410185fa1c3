import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDirs } from '../helpers/config-dirs.js';
import {
  ConfigError,
  validateConfig,
  credentialSecrets,
  DEFAULT_OPENAI_MODEL,
  loadConfig,
  loadCredentials,
} from '../../src/config/config.js';
import { createProvider, MissingApiKeyError } from '../../src/providers/create-provider.js';
import { complete } from '../../src/providers/types.js';
import { startFakeOpenAI } from '../helpers/fake-openai-server.js';

const dirs = () => configDirs('mca-provider-config-');

describe('provider configuration', () => {
  it('defaults to anthropic with the Anthropic model and no OpenAI base URL', () => {
    const { home, project } = dirs();
    const config = loadConfig({ cwd: project, env: { MCA_HOME: home } });
    expect(config.provider).toBe('anthropic');
    expect(config.model).toBe('claude-sonnet-5-5');
    expect(config.openaiBaseUrl).toBeUndefined();
  });

  it('MCA_PROVIDER=openai picks the OpenAI default model unless a layer names one; OPENAI_BASE_URL is read', () => {
    const { home, project } = dirs();
    const env = { MCA_HOME: home, MCA_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' };
    expect(loadConfig({ cwd: project, env })).toMatchObject({
      provider: 'openai',
      model: DEFAULT_OPENAI_MODEL,
      openaiBaseUrl: 'http://127.0.0.1:11434/v1',
    });
    expect(loadConfig({ cwd: project, env: { ...env, MCA_MODEL: 'qwen2.5-coder' } }).model).toBe('qwen2.5-coder');
    writeFileSync(join(project, '.mca', 'config.json'), JSON.stringify({ model: 'llama3.3' }));
    expect(loadConfig({ cwd: project, env }).model).toBe('llama3.3');
  });

  it('reads provider from a config file and rejects an unknown provider with one line naming the key', () => {
    const { home, project } = dirs();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ provider: 'openai' }));
    expect(loadConfig({ cwd: project, env: { MCA_HOME: home } }).provider).toBe('openai');
    const attempt = () => loadConfig({ cwd: project, env: { MCA_HOME: home, MCA_PROVIDER: 'gemini' } });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/"provider"/);
  });

  it('loads OPENAI_API_KEY as its own credential and lists both keys as secrets', () => {
    const credentials = loadCredentials({ ANTHROPIC_API_KEY: 'sk-ant-one', OPENAI_API_KEY: ' sk-two ' });
    expect(credentials).toEqual({ apiKey: 'sk-ant-one', openaiApiKey: 'sk-two' });
    expect(credentialSecrets(credentials)).toEqual(['sk-ant-one', 'sk-two']);
    expect(credentialSecrets(loadCredentials({ OPENAI_API_KEY: '  ' }))).toEqual([]);
  });
});

describe('createProvider with provider openai', () => {
  const config = validateConfig({ mcaHome: '/tmp/unused-mca-home', provider: 'openai', model: 'gpt-x' });

  it('refuses a missing OPENAI_API_KEY with MISSING_API_KEY and a one-line message naming it', async () => {
    for (const openaiApiKey of [undefined, ' ']) {
      const attempt = createProvider(config, { apiKey: 'sk-ant-present', openaiApiKey });
      await expect(attempt).rejects.toBeInstanceOf(MissingApiKeyError);
      await expect(attempt).rejects.toMatchObject({
        code: 'MISSING_API_KEY',
        message: expect.stringMatching(/^OPENAI_API_KEY is not set\. [^\n]*ollama[^\n]*$/),
      });
    }
  });

  it('builds an OpenAI-compatible provider that talks to openaiBaseUrl with the OpenAI key', async () => {
    const server = await startFakeOpenAI([{ text: 'hello there' }], { apiKey: 'ollama' });
    try {
      const provider = await createProvider(
        { ...config, openaiBaseUrl: server.url, baseUrl: 'http://127.0.0.1:9' },
        { apiKey: undefined, openaiApiKey: 'ollama' },
      );
      expect(provider.name).toBe('openai');
      const result = await complete(
        provider,
        { model: 'gpt-x', system: [], user: [{ text: 'hi' }], maxTokens: 50 },
        new AbortController().signal,
      );
      expect(result.text).toBe('hello there');
      expect(server.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
    } finally {
      await server.close();
    }
  });
});

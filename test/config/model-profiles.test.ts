import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { DEFAULT_PROFILE, profileFor } from '../../src/config/model-profiles.js';
import { contextReportOf } from '../../src/loop/context-report.js';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { HistoryManager } from '../../src/context/history-manager.js';

const env = (extra: Record<string, string> = {}) => ({ MCA_HOME: '/nonexistent-mca-home-profiles', ...extra });

describe('model profiles', () => {
  it('picks the family by model name, ignoring case and a provider prefix; unknown models get the default', () => {
    expect(profileFor('claude-sonnet-5-5').contextWindow).toBe(200_000);
    expect(profileFor('GPT-4.1-mini')).toMatchObject({ contextWindow: 1_000_000, compressionThreshold: 0.5 });
    expect(profileFor('openrouter/deepseek-chat')).toMatchObject({ contextWindow: 64_000, maxOutputTokens: 8_192 });
    expect(profileFor('gemini-2.5-pro').contextWindow).toBe(1_000_000);
    expect(profileFor('o3').name).toBe('openai o-series (200k)');
    expect(profileFor('my-local-model')).toEqual(DEFAULT_PROFILE);
  });

  it('fills what config leaves unset from the profile of the configured model', () => {
    const config = loadConfig({ cwd: '/tmp', env: env({ MCA_MODEL: 'deepseek-chat' }) });
    expect(config).toMatchObject({
      contextWindow: 64_000,
      compressionThreshold: 0.5,
      minRetainRounds: 4,
      maxOutputTokens: 8_192,
    });
    expect(config.contextProfile).toEqual({ name: 'deepseek (64k)', overridden: [] });
  });

  it('environment and flags override single settings; the rest still come from the profile', () => {
    const config = loadConfig({
      cwd: '/tmp',
      env: env({ MCA_MODEL: 'gpt-4.1', MCA_CONTEXT_WINDOW: '300000', MCA_MAX_OUTPUT_TOKENS: '4096' }),
      flags: { minRetainRounds: 3 },
    });
    expect(config).toMatchObject({
      contextWindow: 300_000,
      compressionThreshold: 0.5,
      minRetainRounds: 3,
      maxOutputTokens: 4_096,
    });
    expect(config.contextProfile?.overridden.sort()).toEqual(['contextWindow', 'maxOutputTokens', 'minRetainRounds']);
  });

  it('a bad override is still one clear config error', () => {
    expect(() => loadConfig({ cwd: '/tmp', env: env({ MCA_MAX_OUTPUT_TOKENS: 'lots' }) })).toThrow(
      'MCA_MAX_OUTPUT_TOKENS must be a number, got "lots"',
    );
  });

  it('/context reports the profile in use', () => {
    const config = loadConfig({
      cwd: '/tmp',
      env: env({ MCA_MODEL: 'gemini-2.5-flash', MCA_COMPRESSION_THRESHOLD: '0.7' }),
    });
    const built = new ContextBuilder({ systemPrompt: 'L1' }).build({ history: [], scratchpad: [], question: '' });
    const report = contextReportOf(built, config, new HistoryManager({ minRetainRounds: 1 }));
    expect(report).toMatchObject({
      contextWindow: 1_000_000,
      compressionThreshold: 0.7,
      profile: { name: 'gemini (1M)', overridden: ['compressionThreshold'] },
    });
  });
});

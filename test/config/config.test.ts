import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDirs } from '../helpers/config-dirs.js';
import { ConfigError, loadConfig, loadCredentials } from '../../src/config/config.js';

const dirs = () => configDirs('mca-config-');

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const { home, project } = dirs();
    const config = loadConfig({ cwd: project, env: { MCA_HOME: home } });
    expect(config).toMatchObject({
      // The default model's profile (src/config/model-profiles.ts; BENCHMARKS.md explains the threshold).
      contextWindow: 200_000,
      compressionThreshold: 0.5,
      minRetainRounds: 10,
      summaryTimeoutMs: 120_000,
      maxSteps: 50,
      permissionMode: 'default',
      mcaHome: home,
    });
  });

  it('layers user file < project file < env < flags', () => {
    const { home, project } = dirs();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ model: 'from-home', maxSteps: 7, minRetainRounds: 3 }));
    writeFileSync(join(project, '.mca', 'config.json'), JSON.stringify({ model: 'from-project', maxSteps: 8 }));
    const env = { MCA_HOME: home, MCA_MAX_STEPS: '9' };
    expect(loadConfig({ cwd: project, env })).toMatchObject({ model: 'from-project', maxSteps: 9, minRetainRounds: 3 });
    expect(loadConfig({ cwd: project, env, flags: { maxSteps: 10, model: undefined } })).toMatchObject({
      maxSteps: 10,
      model: 'from-project',
    });
  });

  it('reads every documented MCA_* variable', () => {
    const { home, project } = dirs();
    const config = loadConfig({
      cwd: project,
      env: {
        MCA_HOME: home,
        MCA_MODEL: 'm',
        MCA_CONTEXT_WINDOW: '64000',
        MCA_COMPRESSION_THRESHOLD: '0.5',
        MCA_MIN_RETAIN_ROUNDS: '2',
        MCA_SUMMARY_TIMEOUT_MS: '500',
        MCA_MAX_STEPS: '5',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/',
      },
    });
    expect(config).toMatchObject({
      model: 'm',
      contextWindow: 64_000,
      compressionThreshold: 0.5,
      minRetainRounds: 2,
      summaryTimeoutMs: 500,
      maxSteps: 5,
      baseUrl: 'http://127.0.0.1:9/',
    });
  });

  it('rejects invalid values with one line naming the key', () => {
    const { home, project } = dirs();
    const bad = (env: Record<string, string>) => () => loadConfig({ cwd: project, env: { MCA_HOME: home, ...env } });
    expect(bad({ MCA_CONTEXT_WINDOW: 'lots' })).toThrow(/MCA_CONTEXT_WINDOW must be a number/);
    expect(bad({ MCA_COMPRESSION_THRESHOLD: '1.5' })).toThrow(/"compressionThreshold"/);
    expect(bad({ MCA_PERMISSION_MODE: 'yolo' })).toThrow(/"permissionMode"/);
    writeFileSync(join(project, '.mca', 'config.json'), '{not json');
    expect(bad({})).toThrow(ConfigError);
    expect(bad({})).toThrow(/not valid JSON/);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ unknownKey: 1 }));
    writeFileSync(join(project, '.mca', 'config.json'), '{}');
    expect(bad({})).toThrow(/unknownKey|Unrecognized/);
  });

  it('toolProtocol: native by default; MCA_TOOL_PROTOCOL and flags choose; thinking off unless a budget is set', () => {
    const { home, project } = dirs();
    const load = (env: Record<string, string>, flags = {}) =>
      loadConfig({ cwd: project, env: { MCA_HOME: home, ...env }, flags });
    expect(load({})).toMatchObject({ toolProtocol: 'native', thinking: 'off' });
    expect(load({ MCA_TOOL_PROTOCOL: 'text' }).toolProtocol).toBe('text');
    expect(load({ MCA_TOOL_PROTOCOL: 'text' }, { toolProtocol: 'native' }).toolProtocol).toBe('native');
    expect(() => load({ MCA_TOOL_PROTOCOL: 'xml' })).toThrow(/"toolProtocol"/);
    // Both are the user's choice (they follow the endpoint and the bill): a project file cannot set them.
    writeFileSync(join(project, '.mca', 'config.json'), JSON.stringify({ thinking: 4096, toolProtocol: 'text' }));
    expect(load({})).toMatchObject({ toolProtocol: 'native', thinking: 'off' });
    writeFileSync(join(project, '.mca', 'config.json'), '{}');
    writeFileSync(join(home, 'config.json'), JSON.stringify({ thinking: 4096 }));
    expect(load({}).thinking).toBe(4096);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ thinking: 10 }));
    expect(() => load({})).toThrow(/"thinking"/);
  });

  it('keeps the API key out of Config', () => {
    const { home, project } = dirs();
    const config = loadConfig({ cwd: project, env: { MCA_HOME: home, ANTHROPIC_API_KEY: 'sk-secret' } });
    expect(JSON.stringify(config)).not.toContain('sk-secret');
    expect(loadCredentials({ ANTHROPIC_API_KEY: ' sk-secret ' })).toEqual({ apiKey: 'sk-secret' });
    expect(loadCredentials({ ANTHROPIC_API_KEY: '' })).toEqual({ apiKey: undefined });
  });
});

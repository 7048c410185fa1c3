/**
 * Short names and fallback models in the layered config: each layer's short name becomes its id, a fallback equal
 * to the main model is refused from the flag and dropped from a file, and a settings file's `fallbackModel` that is
 * not a name or a short list costs one notice naming the file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDirs } from '../helpers/config-dirs.js';
import { ConfigError, loadConfig, SAME_FALLBACK_MESSAGE } from '../../src/config/config.js';
import { readClaudeSettings } from '../../src/claude-code/settings.js';
import { resolveModelName } from '../../src/config/model-aliases.js';
import { checkModelName } from '../../src/config/model-profiles.js';

const dirs = () => configDirs('mca-model-aliases-');

describe('resolveModelName', () => {
  it('maps each short name (any case) to its id, honours ANTHROPIC_DEFAULT_*_MODEL, leaves other names alone', () => {
    expect(resolveModelName('haiku', {})).toBe('claude-haiku-5-5');
    expect(resolveModelName(' Opus ', {})).toBe('claude-opus-5-5');
    expect(resolveModelName('sonnet', { ANTHROPIC_DEFAULT_SONNET_MODEL: 'claude-sonnet-4-5' })).toBe(
      'claude-sonnet-4-5',
    );
    expect(resolveModelName('inherit', {})).toBe('inherit');
    expect(resolveModelName('gpt-5', {})).toBe('gpt-5');
  });

  it('/model checks a short name as the model it stands for (no unknown-family warning)', () => {
    expect(checkModelName('haiku')).toEqual({ ok: true });
    expect(checkModelName('my-own-model')).toMatchObject({ ok: true, warning: expect.stringContaining('not a model') });
  });
});

describe('config: short names and fallbackModel', () => {
  it('resolves model, summaryModel and the fallbacks from every layer', () => {
    const { home, project } = dirs();
    writeFileSync(join(project, '.mca', 'config.json'), JSON.stringify({ summaryModel: 'haiku' }));
    const config = loadConfig({
      cwd: project,
      env: { MCA_HOME: home, MCA_MODEL: 'opus' },
      settingsFallbackModel: { value: ['sonnet', 'haiku'], file: 'settings.json' },
    });
    expect(config.model).toBe('claude-opus-5-5');
    expect(config.summaryModel).toBe('claude-haiku-5-5');
    expect(config.fallbackModel).toEqual(['claude-sonnet-5-5', 'claude-haiku-5-5']);
  });

  it('the flag wins over the settings list; a flag equal to the main model is refused with Claude Code’s message', () => {
    const { home, project } = dirs();
    const settingsFallbackModel = { value: ['haiku'], file: 'settings.json' };
    const flagged = loadConfig({
      cwd: project,
      env: { MCA_HOME: home },
      flags: { fallbackModel: ['opus'] },
      settingsFallbackModel,
    });
    expect(flagged.fallbackModel).toEqual(['claude-opus-5-5']);
    const same = () =>
      loadConfig({ cwd: project, env: { MCA_HOME: home }, flags: { model: 'sonnet', fallbackModel: ['sonnet'] } });
    expect(same).toThrow(ConfigError);
    expect(same).toThrow(SAME_FALLBACK_MESSAGE);
  });

  it('a settings entry equal to the main model is dropped, and a list of only that leaves no fallback', () => {
    const { home, project } = dirs();
    const load = (value: string[]) =>
      loadConfig({ cwd: project, env: { MCA_HOME: home }, settingsFallbackModel: { value, file: 'settings.json' } });
    expect(load(['claude-sonnet-5-5', 'haiku']).fallbackModel).toEqual(['claude-haiku-5-5']);
    expect(load(['sonnet']).fallbackModel).toBeUndefined();
  });

  it('a config file list longer than three or of non-names is refused naming the file', () => {
    const { home, project } = dirs();
    writeFileSync(join(project, '.mca', 'config.json'), JSON.stringify({ fallbackModel: ['a', 'b', 'c', 'd'] }));
    expect(() => loadConfig({ cwd: project, env: { MCA_HOME: home } })).toThrow(/fallbackModel.*config\.json/);
  });
});

describe('settings fallbackModel', () => {
  it('takes a name or a list; anything else is one notice naming the file; the last file wins', () => {
    const { home, project } = dirs();
    const userHome = join(home, 'user');
    mkdirSync(join(userHome, '.claude'), { recursive: true });
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(join(userHome, '.claude', 'settings.json'), JSON.stringify({ fallbackModel: 'haiku' }));
    const read = () => readClaudeSettings({ projectRoot: project, mcaHome: home, home: userHome, trusted: false });
    expect(read().fallbackModel?.value).toEqual(['haiku']);
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ fallbackModel: ['opus', 'sonnet'] }));
    expect(read().fallbackModel?.value).toEqual(['opus', 'sonnet']);
    for (const bad of [['a', 'b', 'c', 'd'], [], [''], [1], { model: 'x' }, 'x'.repeat(0)]) {
      writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ fallbackModel: bad }));
      const settings = read();
      expect(settings.fallbackModel?.value).toEqual(['haiku']);
      expect(settings.notices.join('\n')).toMatch(/ignored "fallbackModel" in .*settings\.json/);
    }
  });
});

/**
 * A Claude Code set-up through the built binary in -p: the settings files' `env` and `model` applied with Claude
 * Code's meaning and trust rules, one warning per settings key mca does not implement, ANTHROPIC_MODEL and
 * ANTHROPIC_AUTH_TOKEN read as Claude Code reads them, and each credential in its header. HOME and MCA_HOME are
 * temp directories.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakeStep } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProjectWithUserHome, writeJsonFile } from '../helpers/temp-project.js';
import { act, finish } from './support/agent-script.js';

const KEY = 'sk-ant-test-settings-0123456789';
let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function setup() {
  return tempProjectWithUserHome('mca-ccsettings-');
}

async function run(
  project: ReturnType<typeof setup>,
  script: FakeStep[],
  env: Record<string, string | undefined> = {},
  args: string[] = [],
) {
  server = await startFakeAnthropic(script);
  return runMca(['-p', 'go', ...args], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: project.home,
      HOME: project.userHome,
      ...env,
    },
    timeoutMs: 60_000,
  });
}

const models = (): unknown[] => (server?.requests ?? []).map((request) => request.body.model);
const mcaLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('mca: '));

describe('Claude Code settings in -p', () => {
  it("the user's env and model apply: the endpoint and the model come from ~/.claude/settings.json, and commands see the variables", async () => {
    const project = setup();
    const real = await startFakeAnthropic([
      act('Write it.', 'Bash', { command: 'printf %s "$TEAM_FLAG" > flag.txt' }),
      finish('Done.', 'written'),
    ]);
    server = real;
    writeJsonFile(join(project.userHome, '.claude', 'settings.json'), {
      env: { ANTHROPIC_BASE_URL: real.url, TEAM_FLAG: 'from-settings' },
      model: 'claude-from-user-settings',
    });
    const result = await runMca(['-p', 'go', '--allowedTools', 'Bash'], {
      cwd: project.root,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: undefined, MCA_HOME: project.home, HOME: project.userHome },
      timeoutMs: 60_000,
    });
    expect(result.stdout).toBe('written\n');
    expect(result.code).toBe(0);
    expect(models()).toEqual(['claude-from-user-settings', 'claude-from-user-settings']);
    expect(readFileSync(join(project.root, 'flag.txt'), 'utf8')).toBe('from-settings');
    expect(mcaLines(result.stderr)).toEqual([]);
  }, 90_000);

  it("an untrusted project's env is named and ignored (its endpoint never used); its model applies", async () => {
    const project = setup();
    writeJsonFile(join(project.root, '.claude', 'settings.json'), {
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', TEAM_FLAG: 'x' },
      model: 'claude-from-project',
    });
    const result = await run(project, [finish('Done.', 'ok')]);
    expect(result.stdout).toBe('ok\n');
    expect(models()).toEqual(['claude-from-project']);
    const file = join(project.root, '.claude', 'settings.json');
    // The held-back parts are one line naming `mca trust` (the trust question and `mca trust` list them).
    expect(file).toContain('.claude');
    expect(mcaLines(result.stderr).filter((line) => line.includes('this project is not trusted'))).toEqual([
      expect.stringContaining('`mca trust`'),
    ]);
  }, 90_000);

  it("a trusted project's env applies, and a local settings file wins over the shared one", async () => {
    const project = setup();
    writeJsonFile(join(project.root, '.claude', 'settings.json'), { model: 'claude-shared' });
    writeJsonFile(join(project.root, '.claude', 'settings.local.json'), {
      model: 'claude-local',
      env: { MCA_MAX_STEPS: '1' },
    });
    const trust = await runMca(['trust', project.root], {
      env: { MCA_HOME: project.home, HOME: project.userHome },
    });
    expect(trust.code).toBe(0);
    const result = await run(project, [act('Look.', 'LS', { path: '.' }), finish('Done.', 'never reached')]);
    expect(models()[0]).toBe('claude-local');
    // MCA_MAX_STEPS=1 from the project's env: the run stops after one step.
    expect(result.code).not.toBe(0);
    expect(server?.requests).toHaveLength(1);
  }, 90_000);

  it('names every settings key mca does not implement in one line, with their files; known keys are quiet (issue 40)', async () => {
    const project = setup();
    const user = join(project.userHome, '.claude', 'settings.json');
    writeJsonFile(user, {
      includeCoAuthoredBy: false,
      outputStyle: 'Explanatory',
      hooks: {},
      permissions: { allow: [], defaultMode: 'plan' },
    });
    const local = join(project.root, '.claude', 'settings.local.json');
    writeJsonFile(local, { spinnerTipsEnabled: false, enableAllProjectMcpServers: true, $schema: 'x' });
    const result = await run(project, [finish('Done.', 'ok')]);
    expect(result.stdout).toBe('ok\n');
    expect(mcaLines(result.stderr)).toEqual([
      `mca: settings keys mca does not implement, ignored: spinnerTipsEnabled (${local})`,
    ]);
  }, 90_000);

  it("permissions.defaultMode is the start mode: the user's acceptEdits lets -p write without a rule (issue 40)", async () => {
    const project = setup();
    writeJsonFile(join(project.userHome, '.claude', 'settings.json'), { permissions: { defaultMode: 'acceptEdits' } });
    const result = await run(project, [
      act('Write it.', 'Write', { path: 'made.txt', content: 'made by the model\n' }),
      finish('Done.', 'written'),
    ]);
    expect(result.stdout).toBe('written\n');
    expect(readFileSync(join(project.root, 'made.txt'), 'utf8')).toBe('made by the model\n');
    expect(mcaLines(result.stderr)).toEqual([]);
  }, 90_000);

  it('a project cannot start in bypassPermissions, nor in acceptEdits before it is trusted (issue 40)', async () => {
    const project = setup();
    const shared = join(project.root, '.claude', 'settings.json');
    writeJsonFile(shared, { permissions: { defaultMode: 'bypassPermissions' } });
    const result = await run(project, [
      act('Write it.', 'Write', { path: 'made.txt', content: 'x' }),
      finish('Done.', 'refused'),
    ]);
    expect(result.stdout).toBe('refused\n');
    expect(() => readFileSync(join(project.root, 'made.txt'))).toThrow();
    expect(result.stderr).toContain(`ignored permissions.defaultMode "bypassPermissions" in ${shared}`);
  }, 90_000);

  it('ANTHROPIC_MODEL sets the model (MCA_MODEL and --model win); ANTHROPIC_AUTH_TOKEN goes as a bearer token', async () => {
    const project = setup();
    await run(project, [finish('Done.', 'ok')], { ANTHROPIC_MODEL: 'claude-from-env' });
    expect(models()).toEqual(['claude-from-env']);
    await server?.close();
    await run(project, [finish('Done.', 'ok')], { ANTHROPIC_MODEL: 'claude-from-env', MCA_MODEL: 'claude-mca' });
    expect(models()).toEqual(['claude-mca']);
    await server?.close();
    await run(project, [finish('Done.', 'ok')], { ANTHROPIC_MODEL: 'claude-from-env' }, ['--model', 'claude-flag']);
    expect(models()).toEqual(['claude-flag']);
    await server?.close();
    const token = await run(project, [finish('Done.', 'ok')], {
      ANTHROPIC_API_KEY: undefined,
      ANTHROPIC_AUTH_TOKEN: 'gateway-token-123',
    });
    expect(token.stdout).toBe('ok\n');
    expect(server?.requests[0]?.headers.authorization).toBe('Bearer gateway-token-123');
    expect(server?.requests[0]?.headers['x-api-key']).toBeUndefined();
    await server?.close();
    await run(project, [finish('Done.', 'ok')]);
    expect(server?.requests[0]?.headers['x-api-key']).toBe(KEY);
    expect(server?.requests[0]?.headers.authorization).toBeUndefined();
  }, 120_000);
});

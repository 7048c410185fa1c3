/**
 * Claude Code settings keys of issue 40 through the built binary in -p, seen from the model's side (what the loopback
 * fake API receives): `apiKeyHelper`, and the keys that shape the system prompt or the session. HOME and MCA_HOME
 * are temp directories.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, systemText as systemTextOf } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProjectWithUserHome, writeJsonFile } from '../helpers/temp-project.js';
import { finish } from './support/agent-script.js';
import { REPO } from './support/repl-launch.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function setup() {
  const project = tempProjectWithUserHome('mca-cckeys-');
  return { ...project, userSettings: join(project.userHome, '.claude', 'settings.json') };
}

function mcaEnv(project: ReturnType<typeof setup>, url: string): Record<string, string | undefined> {
  return {
    ANTHROPIC_API_KEY: undefined,
    ANTHROPIC_AUTH_TOKEN: undefined,
    ANTHROPIC_BASE_URL: url,
    MCA_HOME: project.home,
    HOME: project.userHome,
  };
}

describe('apiKeyHelper (issue 40)', () => {
  it('with no key in the environment, the helper prints it; after a 401 it runs once more; the key is never shown', async () => {
    const project = setup();
    const good = 'helper-key-fresh-0123456789';
    // The first run prints a stale key (the API answers 401), the next ones the good key.
    const count = join(project.userHome, 'runs');
    const script = join(project.userHome, 'key.sh');
    writeFileSync(
      script,
      `#!/bin/sh\nif [ -f "${count}" ]; then echo ${good}; else touch "${count}"; echo helper-key-stale-0123456789; fi\n`,
    );
    chmodSync(script, 0o755);
    writeJsonFile(project.userSettings, { apiKeyHelper: script });
    server = await startFakeAnthropic([finish('Done.', 'ok')], { apiKey: good });
    const result = await runMca(['-p', 'go'], {
      cwd: project.root,
      env: mcaEnv(project, server.url),
      timeoutMs: 60_000,
    });
    expect(result.stdout).toBe('ok\n');
    expect(result.code).toBe(0);
    const keys = server.requests.map((request) => request.headers['x-api-key']);
    expect(keys).toEqual(['helper-key-stale-0123456789', good]);
    expect(result.stderr).not.toContain(good);
    expect(result.stderr).not.toContain('apiKeyHelper');
  }, 90_000);

  it("a failing helper is named with its file and exit status (exit 2); an untrusted project's helper never runs", async () => {
    const project = setup();
    writeJsonFile(project.userSettings, { apiKeyHelper: 'echo secret-out-0123456789; exit 3' });
    server = await startFakeAnthropic([finish('Done.', 'ok')]);
    const failed = await runMca(['-p', 'go'], {
      cwd: project.root,
      env: mcaEnv(project, server.url),
      timeoutMs: 60_000,
    });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`apiKeyHelper in ${project.userSettings} exited with 3`);
    expect(failed.stderr).not.toContain('secret-out');
    expect(server.requests).toHaveLength(0);

    writeJsonFile(project.userSettings, {});
    const marker = join(project.root, 'ran');
    const shared = join(project.root, '.claude', 'settings.json');
    writeJsonFile(shared, { apiKeyHelper: `touch ${marker}; echo project-key-0123456789` });
    const untrusted = await runMca(['-p', 'go'], {
      cwd: project.root,
      env: mcaEnv(project, server.url),
      timeoutMs: 60_000,
    });
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toContain('ANTHROPIC_API_KEY is not set');
    expect(untrusted.stderr).toContain(`ignored "apiKeyHelper" in ${shared}: the project is not trusted`);
    expect(existsSync(marker)).toBe(false);
    expect(server.requests).toHaveLength(0);
  }, 90_000);
});

const KEY = 'sk-ant-test-keys-0123456789';

/** One -p run against a fresh fake; resolves with the system text of its first request. */
async function systemText(project: ReturnType<typeof setup>, args: string[] = []): Promise<string> {
  server = await startFakeAnthropic([finish('Done.', 'ok')]);
  const result = await runMca(['-p', 'go', ...args], {
    cwd: project.root,
    env: { ...mcaEnv(project, server.url), ANTHROPIC_API_KEY: KEY },
    timeoutMs: 60_000,
  });
  expect(result.stdout).toBe('ok\n');
  const system = server.requests[0]?.body.system;
  await server.close();
  server = undefined;
  if (typeof system === 'string') return system;
  return (Array.isArray(system) ? system : []).map((block: { text?: string }) => block.text ?? '').join('\n');
}

describe('apiKeyHelper in mca doctor (issue 40)', () => {
  it('names the helper as the key source when the environment has no key, and never runs it', async () => {
    const project = setup();
    const marker = join(project.userHome, 'helper-ran');
    writeJsonFile(project.userSettings, { apiKeyHelper: `touch ${marker}; echo k-0123456789` });
    const doctor = await runMca(['doctor'], { cwd: project.root, env: mcaEnv(project, 'http://127.0.0.1:9') });
    expect(doctor.stdout).toContain(`✓ API key: apiKeyHelper (${project.userSettings})`);
    expect(existsSync(marker)).toBe(false);
  }, 60_000);
});

describe('includeCoAuthoredBy and attribution (issue 40)', () => {
  it("by default the model is told to end its commit messages with mca's trailer; false or an empty text removes it", async () => {
    const project = setup();
    expect(await systemText(project)).toContain(
      'end it with a blank line followed by exactly this text:\nCo-Authored-By: mca <noreply@mca.invalid>',
    );
    writeJsonFile(project.userSettings, { includeCoAuthoredBy: false });
    expect(await systemText(project)).not.toContain('Co-Authored-By');
    writeJsonFile(project.userSettings, {
      includeCoAuthoredBy: false,
      attribution: { commit: 'Assisted-by: team bot' },
    });
    const custom = await systemText(project);
    expect(custom).toContain('exactly this text:\nAssisted-by: team bot');
    expect(custom).not.toContain('Co-Authored-By');
    writeJsonFile(project.userSettings, { attribution: { commit: '' } });
    expect(await systemText(project)).not.toContain('Commit attribution');
  }, 120_000);
});

describe('cleanupPeriodDays (issue 40)', () => {
  it('sessions not written for that many days go with their checkpoints and tool memory; newer ones and other files stay', async () => {
    const project = setup();
    const dir = join(project.home, 'projects', 'another-project');
    const old = '11111111-2222-4333-8444-555555555555';
    const recent = '66666666-7777-4888-8999-aaaaaaaaaaaa';
    const days = (count: number): Date => new Date(Date.now() - count * 24 * 60 * 60 * 1000);
    for (const [id, age] of [
      [old, 20],
      [recent, 5],
    ] as const) {
      mkdirSync(join(dir, `${id}.checkpoints`), { recursive: true });
      writeFileSync(join(dir, `${id}.checkpoints`, 'journal'), 'x');
      mkdirSync(join(dir, `${id}.tools`), { recursive: true });
      writeFileSync(join(dir, `${id}.jsonl`), '{}\n');
      utimesSync(join(dir, `${id}.jsonl`), days(age), days(age));
    }
    writeFileSync(join(dir, 'history.jsonl'), '{}\n');
    utimesSync(join(dir, 'history.jsonl'), days(400), days(400));
    writeJsonFile(project.userSettings, { cleanupPeriodDays: 10 });
    await systemText(project);
    expect(readdirSync(dir).sort()).toEqual(
      [`${recent}.checkpoints`, `${recent}.jsonl`, `${recent}.tools`, 'history.jsonl'].sort(),
    );
    // The run's own session is there.
    const own = readdirSync(join(project.home, 'projects')).filter((name) => name !== 'another-project');
    expect(
      own.some((name) => readdirSync(join(project.home, 'projects', name)).some((f) => f.endsWith('.jsonl'))),
    ).toBe(true);
  }, 90_000);
});

describe('alwaysThinkingEnabled (issue 40)', () => {
  it('true: every request asks for extended thinking; absent or false: none; a thinking budget in config.json wins', async () => {
    const project = setup();
    const thinkingOf = async (): Promise<unknown> => {
      server = await startFakeAnthropic([finish('Done.', 'ok')]);
      const result = await runMca(['-p', 'go'], {
        cwd: project.root,
        env: { ...mcaEnv(project, server.url), ANTHROPIC_API_KEY: KEY },
        timeoutMs: 60_000,
      });
      expect(result.stdout).toBe('ok\n');
      const thinking = server.requests[0]?.body.thinking;
      await server.close();
      server = undefined;
      return thinking;
    };
    expect(await thinkingOf()).toBeUndefined();
    writeJsonFile(project.userSettings, { alwaysThinkingEnabled: true });
    expect(await thinkingOf()).toMatchObject({ type: 'enabled' });
    writeJsonFile(join(project.home, 'config.json'), { thinking: 2048 });
    expect(await thinkingOf()).toEqual({ type: 'enabled', budget_tokens: 2048 });
    writeJsonFile(join(project.home, 'config.json'), {});
    writeJsonFile(project.userSettings, { alwaysThinkingEnabled: false });
    expect(await thinkingOf()).toBeUndefined();
  }, 120_000);
});

describe('outputStyle (issue 40)', () => {
  it("a built-in style's text and a project file's style reach the system prompt; Default adds none; an unknown one is named", async () => {
    const project = setup();
    writeJsonFile(project.userSettings, { outputStyle: 'Explanatory' });
    expect(await systemText(project)).toContain('# Output style: Explanatory\n');
    const styleFile = join(project.root, '.claude', 'output-styles', 'terse.md');
    mkdirSync(dirname(styleFile), { recursive: true });
    writeFileSync(styleFile, '---\nname: Terse Reviewer\ndescription: short\n---\nAnswer in at most three lines.\n');
    writeJsonFile(project.userSettings, { outputStyle: 'terse reviewer' });
    expect(await systemText(project)).toContain('# Output style: Terse Reviewer\nAnswer in at most three lines.');
    writeJsonFile(project.userSettings, { outputStyle: 'default' });
    expect(await systemText(project)).not.toContain('# Output style');
    writeJsonFile(project.userSettings, { outputStyle: 'Pirate' });
    server = await startFakeAnthropic([finish('Done.', 'ok')]);
    const unknown = await runMca(['-p', 'go'], {
      cwd: project.root,
      env: { ...mcaEnv(project, server.url), ANTHROPIC_API_KEY: KEY },
      timeoutMs: 60_000,
    });
    expect(unknown.stderr).toContain(`mca: ignored "outputStyle" "Pirate" in ${project.userSettings}: no such style`);
  }, 120_000);
});

describe('--plugin-dir (issue 40)', () => {
  it('a plugin folder brings its command as /<plugin>:<name> and its skill as <plugin>:<name>', async () => {
    const project = setup();
    const plugin = join(REPO, 'test', 'fixtures', 'plugins', 'demo-plugin');
    server = await startFakeAnthropic([finish('Done.', 'ok')]);
    const result = await runMca(['-p', '/demo:greet Ada', '--plugin-dir', plugin], {
      cwd: project.root,
      env: { ...mcaEnv(project, server.url), ANTHROPIC_API_KEY: KEY },
      timeoutMs: 60_000,
    });
    expect(result.stdout).toBe('ok\n');
    const body = server.requests[0]?.body;
    expect(JSON.stringify(body?.messages)).toContain('Say hello to Ada from the demo plugin.');
    expect(systemTextOf(body ?? { messages: [] })).toContain('demo:tidy-notes');
    // Its hook, MCP server, subagent and output style: test/e2e/plugins.test.ts.
  }, 90_000);
});

/**
 * Claude Code plugins through the built binary (issue 40), seen from the model's side (what the loopback fake API
 * receives) and the user's (files a hook writes, stdout, stderr): a plugin folder (test/fixtures/plugins/demo-plugin)
 * brings its command, skill, subagent, hook, MCP server and output style, namespaced as Claude Code does; a
 * marketplace in a local bare git repository is added, its plugin installed, and the next `mca -p` has it; a plugin
 * only an untrusted project enables runs nothing until the project is trusted. HOME and MCA_HOME are temp folders.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startFakeAnthropic,
  systemText,
  userText,
  type FakeAnthropic,
  type FakeRequestBody,
} from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProjectWithUserHome, writeJsonFile } from '../helpers/temp-project.js';
import { act, finish } from './support/agent-script.js';
import { REPO } from './support/repl-launch.js';

const KEY = 'sk-ant-plugins-test-0123456789';
const FIXTURE = join(REPO, 'test', 'fixtures', 'plugins', 'demo-plugin');
const MCP_TOOL = 'mcp__plugin_demo_notes__jot';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function setup() {
  return tempProjectWithUserHome('mca-plugins-');
}

function envFor(project: ReturnType<typeof setup>, url = 'http://127.0.0.1:9'): Record<string, string | undefined> {
  return {
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_AUTH_TOKEN: undefined,
    ANTHROPIC_BASE_URL: url,
    MCA_HOME: project.home,
    HOME: project.userHome,
  };
}

function toolNames(body: FakeRequestBody | undefined): string[] {
  const tools = (body as { tools?: Array<{ name: string }> } | undefined)?.tools ?? [];
  return tools.map((tool) => tool.name);
}

/** The script: one Bash call (the plugin's PreToolUse hook blocks it), then the answer. */
function bashThenAnswer() {
  return [act('Run it.', 'Bash', { command: 'echo from-the-model' }), finish('Done.', 'ok')];
}

describe('a plugin folder (--plugin-dir)', () => {
  it('brings its command, skill, subagent, MCP tool, hook and output style, named <plugin>:<name>', async () => {
    const project = setup();
    writeJsonFile(join(project.home, 'settings.json'), { outputStyle: 'demo:Brief' });
    server = await startFakeAnthropic(bashThenAnswer());
    const result = await runMca(['-p', '/demo:greet Ada', '--plugin-dir', FIXTURE], {
      cwd: project.root,
      env: envFor(project, server.url),
      timeoutMs: 90_000,
    });
    expect(result.stdout, result.stderr).toBe('ok\n');
    const first = server.requests[0]?.body;
    expect(first).toBeDefined();
    const body = first as FakeRequestBody;
    // The command's prompt, expanded; the skill and the subagent listed; the server's tool offered, namespaced.
    expect(userText(body)).toContain('Say hello to Ada from the demo plugin.');
    expect(systemText(body)).toContain('demo:tidy-notes');
    expect(JSON.stringify(body)).toContain('demo:reviewer');
    expect(toolNames(body)).toContain(MCP_TOOL);
    expect(systemText(body)).toContain('# Output style: demo:Brief\nAnswer in one short line.');
    // The hook ran with CLAUDE_PLUGIN_ROOT, in the project, and its exit 2 blocked the call: the model reads why.
    expect(readFileSync(join(project.root, 'plugin-hook-ran'), 'utf8')).toBe(`plugin root: ${FIXTURE}\n`);
    expect(userText(server.requests[1]?.body as FakeRequestBody)).toContain('blocked by the demo plugin');
  }, 120_000);
});

describe('system/init with a plugin (stream-json)', () => {
  it("lists the plugin, its server, subagent and skill as Claude Code's init does", async () => {
    const project = setup();
    server = await startFakeAnthropic([finish('Done.', 'ok')]);
    const args = ['-p', 'hi', '--plugin-dir', FIXTURE, '--output-format', 'stream-json', '--verbose'];
    const result = await runMca(args, { cwd: project.root, env: envFor(project, server.url), timeoutMs: 90_000 });
    expect(result.code, result.stderr).toBe(0);
    const init = JSON.parse(result.stdout.split('\n')[0] ?? '{}') as Record<string, unknown>;
    expect(init.plugins).toEqual([{ name: 'demo', path: FIXTURE, source: 'demo@inline', version: '1.0.0' }]);
    expect(init.mcp_servers).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'plugin:demo:notes' })]));
    expect(init.agents).toContain('demo:reviewer');
    expect(init.skills).toContain('demo:tidy-notes');
  }, 120_000);
});

describe("a plugin's subagent", () => {
  it('runs as <plugin>:<name> with its own prompt', async () => {
    const project = setup();
    const call = { subagent_type: 'demo:reviewer', description: 'review', prompt: 'Review the change.' };
    server = await startFakeAnthropic([
      act('Ask the reviewer.', 'Agent', call),
      finish('Reviewed.', 'looks fine'),
      finish('Done.', 'ok'),
    ]);
    const result = await runMca(['-p', 'review it', '--plugin-dir', FIXTURE], {
      cwd: project.root,
      env: envFor(project, server.url),
      timeoutMs: 90_000,
    });
    expect(result.stdout, result.stderr).toBe('ok\n');
    const subagent = server.requests[1]?.body as FakeRequestBody;
    expect(systemText(subagent)).toContain("You are the demo plugin's reviewer.");
    expect(userText(subagent)).toContain('Review the change.');
  }, 120_000);
});

/** A marketplace repository holding the demo plugin, pushed to a bare repository; returns its file:// URL. */
function bareMarketplace(base: string): string {
  const work = join(base, 'market-work');
  mkdirSync(join(work, 'plugins'), { recursive: true });
  cpSync(FIXTURE, join(work, 'plugins', 'demo'), { recursive: true });
  writeJsonFile(join(work, '.claude-plugin', 'marketplace.json'), {
    name: 'team-tools',
    owner: { name: 'tests' },
    plugins: [{ name: 'demo', source: './plugins/demo', description: 'the demo plugin' }],
  });
  const git = (args: string[], cwd: string): void => void execFileSync('git', args, { cwd, stdio: 'ignore' });
  git(['init', '-q'], work);
  git(['add', '-A'], work);
  git(['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-qm', 'market'], work);
  const bare = join(base, 'market.git');
  git(['clone', '-q', '--bare', work, bare], base);
  return `file://${bare}`;
}

describe('marketplaces (mca plugin)', () => {
  it('adds a marketplace from a git URL, installs its plugin, and the next mca -p has it', async () => {
    const project = setup();
    const url = bareMarketplace(dirname(project.root));
    const env = envFor(project);
    const added = await runMca(['plugin', 'marketplace', 'add', url], { cwd: project.root, env });
    expect(added.stderr).toBe('');
    expect(added.stdout).toContain('Added marketplace team-tools');
    const listed = await runMca(['plugin', 'marketplace', 'list'], { cwd: project.root, env });
    expect(listed.stdout).toContain('team-tools');
    const installed = await runMca(['plugin', 'install', 'demo@team-tools'], { cwd: project.root, env });
    expect(installed.code, installed.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(project.home, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(settings.enabledPlugins).toEqual({ 'demo@team-tools': true });
    const list = await runMca(['plugin', 'list'], { cwd: project.root, env });
    expect(list.stdout).toMatch(/demo@team-tools\s+1\.0\.0\s+enabled/);

    server = await startFakeAnthropic(bashThenAnswer());
    const result = await runMca(['-p', '/demo:greet Bo'], {
      cwd: project.root,
      env: envFor(project, server.url),
      timeoutMs: 90_000,
    });
    expect(result.stdout, result.stderr).toBe('ok\n');
    const body = server.requests[0]?.body as FakeRequestBody;
    expect(userText(body)).toContain('Say hello to Bo from the demo plugin.');
    expect(toolNames(body)).toContain(MCP_TOOL);
    // The installed copy's hook ran (it lives in mca's plugin cache, not in the marketplace).
    expect(readFileSync(join(project.root, 'plugin-hook-ran'), 'utf8')).toContain(
      join(project.home, 'plugins', 'cache', 'team-tools', 'demo', '1.0.0'),
    );

    const disabled = await runMca(['plugin', 'disable', 'demo'], { cwd: project.root, env });
    expect(disabled.code, disabled.stderr).toBe(0);
    server = await startFakeAnthropic([finish('Done.', 'ok')]);
    const off = await runMca(['-p', 'hello'], { cwd: project.root, env: envFor(project, server.url) });
    expect(off.stdout, off.stderr).toBe('ok\n');
    expect(toolNames(server.requests[0]?.body)).not.toContain(MCP_TOOL);
  }, 180_000);

  it('names an unknown plugin or marketplace in one line, exit 1', async () => {
    const project = setup();
    const result = await runMca(['plugin', 'install', 'nope@nowhere'], { cwd: project.root, env: envFor(project) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no marketplace "nowhere"');
  });
});

describe("a plugin only the project's settings enable", () => {
  it('runs no hook and starts no server until the project is trusted; its hook then runs', async () => {
    const project = setup();
    // Installed (as `mca plugin install` records it) but switched on only by the project's shared settings.
    writeJsonFile(join(project.home, 'plugins', 'installed_plugins.json'), {
      version: 2,
      plugins: { 'demo@team-tools': [{ scope: 'user', installPath: FIXTURE, version: '1.0.0' }] },
    });
    writeJsonFile(join(project.root, '.claude', 'settings.json'), { enabledPlugins: { 'demo@team-tools': true } });
    server = await startFakeAnthropic(bashThenAnswer());
    const untrusted = await runMca(['-p', 'run it'], {
      cwd: project.root,
      env: envFor(project, server.url),
      timeoutMs: 90_000,
    });
    expect(untrusted.stdout, untrusted.stderr).toBe('ok\n');
    expect(existsSync(join(project.root, 'plugin-hook-ran'))).toBe(false);
    expect(untrusted.stderr).toMatch(/this project is not trusted: .*\(hooks, MCP servers\)/);
    // The key is read, so the one unsupported-keys line does not name it.
    expect(untrusted.stderr).not.toContain('enabledPlugins');
    const body = server.requests[0]?.body as FakeRequestBody;
    expect(toolNames(body)).not.toContain(MCP_TOOL);
    expect(systemText(body)).not.toContain('demo:tidy-notes');

    const trusted = await runMca(['trust'], { cwd: project.root, env: envFor(project) });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain('plugin demo@team-tools');
    server = await startFakeAnthropic(bashThenAnswer());
    const after = await runMca(['-p', 'run it'], {
      cwd: project.root,
      env: envFor(project, server.url),
      timeoutMs: 90_000,
    });
    expect(after.stdout, after.stderr).toBe('ok\n');
    expect(existsSync(join(project.root, 'plugin-hook-ran'))).toBe(true);
    expect(systemText(server.requests[0]?.body as FakeRequestBody)).toContain('demo:tidy-notes');
  }, 180_000);
});

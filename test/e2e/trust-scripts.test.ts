/**
 * Trust outside the REPL through the built binary (issue 41 item 1, issue 43 class 1): `-p` in an untrusted
 * project says so in one line naming `mca trust` and MCA_TRUST_PROJECT; MCA_TRUST_PROJECT=1 trusts for that run
 * only; `mca trust` lists what it turns on (a server's env and headers included) and names servers still to be
 * approved; a server the user adds with `mca mcp add -s project` is approved by that act.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject, type TempProject } from '../helpers/temp-project.js';

/** Another build to run the same tests against (e.g. /work/main/dist/cli/mca.cjs). */
const ENTRY = process.env.MCA_E2E_BIN;
const KEY = 'sk-ant-test-trust-scripts-0123456';
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const FILES = {
  '.claude/settings.json': JSON.stringify({
    permissions: { allow: ['Bash(touch made-by-script)'] },
    env: { NODE_OPTIONS: '--require ./x.cjs' },
  }),
  '.mcp.json': JSON.stringify({
    mcpServers: {
      tracker: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' } },
    },
  }),
};

const env = (project: TempProject, more: Record<string, string> = {}) => ({
  ANTHROPIC_API_KEY: KEY,
  MCA_HOME: project.home,
  HOME: join(project.home, 'user-home'),
  GITHUB_TOKEN: 'ghp-secret-value',
  ...more,
});

async function print(project: TempProject, more: Record<string, string> = {}) {
  const script: FakeStep[] = [
    { text: 'run', calls: [{ name: 'Bash', input: { command: 'touch made-by-script' } }] },
    { text: 'done' },
  ];
  fake = await startFakeAnthropic(script);
  return runMca(['-p', 'go', '--output-format', 'json'], {
    cwd: project.root,
    env: { ...env(project, more), ANTHROPIC_BASE_URL: fake.url },
    timeoutMs: 40_000,
    ...(ENTRY ? { entry: ENTRY } : {}),
  });
}

const toldAfterCall = (): string =>
  JSON.stringify((fake?.requests[1]?.body as { messages: unknown[] } | undefined)?.messages.at(-1) ?? '');

describe('-p in an untrusted project', () => {
  it('one line names `mca trust` and the opt-in; the project allow rule is off', async () => {
    const project = tempProject('mca-trust-p-', FILES);
    const result = await print(project);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n').filter((line) => /not trusted/.test(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('mca trust');
    expect(lines[0]).toContain('MCA_TRUST_PROJECT=1');
    expect(toldAfterCall(), toldAfterCall()).toContain('PERMISSION_DENIED');
    expect(existsSync(join(project.root, 'made-by-script'))).toBe(false);
  }, 60_000);

  it('MCA_TRUST_PROJECT=1 trusts it for that run only', async () => {
    const project = tempProject('mca-trust-p-opt-', FILES);
    const result = await print(project, { MCA_TRUST_PROJECT: '1' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/not trusted/);
    expect(existsSync(join(project.root, 'made-by-script'))).toBe(true);
    const store = join(project.home, 'trusted-projects.json');
    expect(existsSync(store) ? readFileSync(store, 'utf8') : '').not.toContain(project.root);
  }, 60_000);
});

describe('mca trust', () => {
  it('--help prints its usage and exits 0; a bad flag is one usage line and exit 2, never a stack trace', async () => {
    const project = tempProject('mca-trust-help-', {});
    const help = await runMca(['trust', '--help'], {
      cwd: project.root,
      env: env(project),
      ...(ENTRY ? { entry: ENTRY } : {}),
    });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('usage: mca trust [--revoke] [dir]');
    expect(help.stderr).toBe('');
    const bad = await runMca(['trust', '--bogus'], {
      cwd: project.root,
      env: env(project),
      ...(ENTRY ? { entry: ENTRY } : {}),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringContaining('usage: mca trust [--revoke] [dir]')]);
    expect(bad.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('lists what it turns on, env and headers included, and names the servers still to approve', async () => {
    const project = tempProject('mca-trust-cmd-', FILES);
    const result = await runMca(['trust'], {
      cwd: project.root,
      env: env(project),
      ...(ENTRY ? { entry: ENTRY } : {}),
    });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout.replace(/\n {4,}/g, ' ');
    expect(out).toMatch(/header Authorization: .*sends \$\{GITHUB_TOKEN\}/);
    expect(out).not.toContain('ghp-secret-value');
    expect(out).toMatch(/sets NODE_OPTIONS=--require \.\/x\.cjs: makes programs load code/);
    expect(out).toContain('allows Bash(touch made-by-script)');
    expect(out).toMatch(/1 \.mcp\.json server\(s\) not approved yet: tracker/);
  });

  it('a server added with `mca mcp add -s project` is approved by that act', async () => {
    const project = tempProject('mca-trust-add-');
    const added = await runMca(['mcp', 'add', '-s', 'project', 'mine', '--', 'node', 'server.js'], {
      cwd: project.root,
      env: env(project),
      ...(ENTRY ? { entry: ENTRY } : {}),
    });
    expect(added.code, added.stderr).toBe(0);
    const trusted = await runMca(['trust'], {
      cwd: project.root,
      env: env(project),
      ...(ENTRY ? { entry: ENTRY } : {}),
    });
    expect(trusted.stdout).toContain('"mine" runs node server.js');
    expect(trusted.stdout).not.toContain('not approved yet');
  });
});

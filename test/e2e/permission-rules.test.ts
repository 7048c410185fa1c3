/**
 * Permission rules through the built binary: settings files in Claude Code's syntax, trust, --allowedTools and
 * --disallowedTools, what -p prints and what the model is told. HOME and MCA_HOME are temp directories.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakeStep } from '../helpers/fake-anthropic-server.js';
import { act, finish } from './support/agent-script.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject, writeJsonFile } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-rules-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PACKAGE = JSON.stringify({
  name: 'p',
  version: '1.0.0',
  scripts: { test: "node -e \"require('fs').writeFileSync('ran.txt','yes')\"" },
});

function setup(files: Record<string, string>) {
  const project = tempProject('mca-rules-', { 'package.json': PACKAGE, 'x/keep.txt': 'keep', ...files });
  const userHome = join(dirname(project.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  return { ...project, userHome };
}

async function run(project: { root: string; home: string; userHome: string }, script: FakeStep[], args: string[] = []) {
  server = await startFakeAnthropic(script);
  return runMca(['-p', 'go', '--output-format', 'json', ...args], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: project.home,
      HOME: project.userHome,
      NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    },
    timeoutMs: 60_000,
  });
}

/** What the model was told after step `index` (the observation in the next request). */
function observationAfter(index: number): string {
  const body = server?.requests[index + 1]?.body;
  if (!body) throw new Error(`no request after step ${index}`);
  const text = userText(body);
  const at = text.lastIndexOf('Observation:');
  if (at >= 0) return text.slice(at); // the text protocol
  // Native tool use: the newest user message holds the step's tool_result.
  const last = body.messages?.at(-1);
  return last ? userText({ messages: [last] }) : '';
}

const NPM_SCRIPT: FakeStep[] = [
  act('go', 'Bash', { command: 'npm test && rm -rf x' }),
  act('go', 'Bash', { command: 'npm publish' }),
  act('go', 'Bash', { command: 'npm test' }),
  finish('done', 'done'),
];

describe('permission rules in -p', () => {
  it('a trusted project allow rule runs npm test and denies a compound command and npm publish, naming the rule', async () => {
    const project = setup({
      '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'] } }),
    });
    const trust = await runMca(['trust'], {
      cwd: project.root,
      env: { MCA_HOME: project.home, HOME: project.userHome },
    });
    expect(trust.code).toBe(0);
    expect(statSync(join(project.home, 'trusted-projects.json')).mode & 0o777).toBe(0o600);

    const result = await run(project, NPM_SCRIPT);
    expect(result.code).toBe(0);
    expect(existsSync(join(project.root, 'x', 'keep.txt'))).toBe(true);
    expect(readFileSync(join(project.root, 'ran.txt'), 'utf8')).toBe('yes');
    expect(observationAfter(0)).toContain('PERMISSION_DENIED');
    expect(observationAfter(0)).toContain('`rm -rf x` is not covered by an allow rule');
    expect(observationAfter(1)).toContain('PERMISSION_DENIED');
    expect(observationAfter(1)).toContain('npm publish');
    expect(observationAfter(2)).toContain('> p@1.0.0 test');
    expect(observationAfter(2)).not.toContain('PERMISSION_DENIED');
    const output = JSON.parse(result.stdout) as {
      permission_denials: Array<{ tool_name: string; tool_use_id: string; tool_input: unknown }>;
    };
    expect(output.permission_denials.map((denial) => denial.tool_name)).toEqual(['Bash', 'Bash']);
    expect(output.permission_denials.map((denial) => denial.tool_input)).toEqual([
      { command: 'npm test && rm -rf x' },
      { command: 'npm publish' },
    ]);
    expect(result.stderr).not.toContain('not trusted');
  });

  it('the same allow rule in an untrusted project is ignored with one notice, and text mode prints each denial', async () => {
    const project = setup({
      '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'] } }),
    });
    server = await startFakeAnthropic([act('go', 'Bash', { command: 'npm test' }), finish('done', 'done')]);
    const result = await runMca(['-p', 'go'], {
      cwd: project.root,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: project.home, HOME: project.userHome },
    });
    expect(result.code).toBe(0);
    expect(existsSync(join(project.root, 'ran.txt'))).toBe(false);
    const lines = result.stderr.trim().split('\n');
    expect(lines.filter((line) => line.includes('not trusted'))).toHaveLength(1);
    // One line for everything held back, naming `mca trust` and the scripts' opt-in (issue 41).
    expect(lines.filter((line) => line.includes('MCA_TRUST_PROJECT=1') && line.includes('mca trust'))).toHaveLength(1);
    expect(
      lines.filter((line) => line.startsWith('mca: permission denied: ') && line.includes('npm test')),
    ).toHaveLength(1);
    expect(observationAfter(0)).toContain('PERMISSION_DENIED');
  });

  it('project deny rules apply untrusted, and Read(./.env) deny wins over a user allow, however the path is spelled', async () => {
    const project = setup({ '.env': 'SECRET_VALUE=hunter2', 'notes.md': 'hello notes', 'link.txt': '' });
    writeJsonFile(join(project.root, '.mca', 'settings.json'), { permissions: { deny: ['Read(./.env)'] } });
    writeJsonFile(join(project.home, 'settings.json'), { permissions: { allow: ['Read', 'Bash(cat:*)'] } });
    const result = await run(project, [
      act('go', 'Read', { path: '.env' }),
      act('go', 'Read', { path: 'x/../.env' }),
      act('go', 'Grep', { pattern: 'SECRET', path: '.env' }),
      act('go', 'Read', { path: 'notes.md' }),
      finish('done', 'done'),
    ]);
    expect(result.code).toBe(0);
    for (const step of [0, 1, 2]) {
      expect(observationAfter(step)).toContain('PERMISSION_DENIED');
      expect(observationAfter(step)).toContain('Read(./.env)');
      expect(observationAfter(step)).not.toContain('hunter2');
    }
    expect(observationAfter(3)).toContain('hello notes');
  });

  it('--allowedTools allows and --disallowedTools denies, even in bypassPermissions; a bad rule exits 2', async () => {
    const project = setup({});
    const allowed = await run(
      project,
      [act('go', 'Bash', { command: 'npm test' }), finish('done', 'done')],
      ['--allowedTools', 'Bash(npm test:*),Read'],
    );
    expect(allowed.code).toBe(0);
    expect(readFileSync(join(project.root, 'ran.txt'), 'utf8')).toBe('yes');

    const denied = await run(
      project,
      [act('go', 'Bash', { command: 'echo hi > out.txt' }), finish('done', 'done')],
      ['--dangerously-skip-permissions', '--disallowedTools', 'Bash(echo:*)'],
    );
    expect(denied.code).toBe(0);
    expect(existsSync(join(project.root, 'out.txt'))).toBe(false);
    expect(observationAfter(0)).toContain('Bash(echo:*) (deny rule from --disallowedTools)');

    const bad = await runMca(['-p', 'x', '--allowedTools', 'rm -rf(('], {
      cwd: project.root,
      env: { ANTHROPIC_API_KEY: KEY, MCA_HOME: project.home, HOME: project.userHome },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a broken or hostile settings file is skipped with one line and loses nothing else', async () => {
    const project = setup({ '.claude/settings.json': '{ not json' });
    writeJsonFile(join(project.root, '.claude', 'settings.local.json'), { permissions: { deny: 'Bash', ask: [42] } });
    const result = await run(project, [finish('done', 'fine')]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ result: 'fine' });
    expect(result.stderr).toMatch(/ignored .*\.claude\/settings\.json: not valid JSON/);
    expect(result.stderr).toMatch(/permissions\.deny .* must be a list/);
  });

  it('--permission-mode plan in -p: reads run, Write and Bash are refused, a plan cannot be approved', async () => {
    const project = setup({ 'notes.md': 'plan notes' });
    const result = await run(
      project,
      [
        act('go', 'Read', { path: 'notes.md' }),
        act('go', 'Write', { path: 'new.txt', content: 'x' }),
        act('go', 'Bash', { command: 'npm test' }),
        act('go', 'ExitPlanMode', { plan: 'do it' }),
        finish('done', 'the plan: do it'),
      ],
      ['--permission-mode', 'plan', '--allowedTools', 'Bash(npm test:*)'],
    );
    expect(result.code).toBe(0);
    expect(observationAfter(0)).toContain('plan notes');
    expect(observationAfter(1)).toContain('plan mode is on: only read-only tools run');
    expect(observationAfter(2)).toContain('plan mode is on');
    expect(observationAfter(3)).toContain('no one can approve a plan in print mode');
    expect(existsSync(join(project.root, 'new.txt'))).toBe(false);
    expect(existsSync(join(project.root, 'ran.txt'))).toBe(false);
    expect(userText(server!.requests[0]!.body)).toContain('Plan mode is active');
  });
});

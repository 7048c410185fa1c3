/**
 * Custom slash commands through the built binary in -p: arguments, `!` lines under the permission rules and
 * trust, @file mentions, namespaces, project over user, and a broken file skipped with one line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { finish } from './support/agent-script.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-commands-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function put(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function setup() {
  const project = tempProject('mca-commands-', { 'src/a.ts': 'export const a = 1;\n' });
  const userHome = join(dirname(project.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  return { ...project, userHome };
}

async function ask(project: ReturnType<typeof setup>, prompt: string, args: string[] = []) {
  server = await startFakeAnthropic([finish('done', 'ok')]);
  const run = await runMca(['-p', prompt, ...args], {
    cwd: project.root,
    env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: project.home, HOME: project.userHome },
  });
  const body = server.requests[0]?.body;
  return { run, sent: body ? userText(body) : '' };
}

const REVIEW = [
  '---',
  'description: Review a file',
  'argument-hint: <file> [focus]',
  'allowed-tools: Bash(echo:*), Bash(git status:*)',
  '---',
  'Review @$1 with focus "$2". All: $ARGUMENTS.',
  'Marker: !`echo SHELL-OUTPUT-$2`',
  'Denied: !`touch made.txt`',
].join('\n');

describe('custom commands in -p', () => {
  it('expands $1, $2, $ARGUMENTS, runs an allowed ! line, refuses another, and mentions @file', async () => {
    const project = setup();
    put(join(project.home, 'commands', 'review.md'), REVIEW);
    const { run, sent } = await ask(project, '/review src/a.ts speed');
    expect(run.code, run.stderr).toBe(0);
    expect(sent).toContain('Review @src/a.ts with focus "speed". All: src/a.ts speed.');
    expect(sent).toContain('Marker: SHELL-OUTPUT-speed');
    expect(sent).toMatch(/Denied: \[!`touch made.txt` not run: .*needs permission/);
    expect(sent).toContain('The user mentioned @src/a.ts.');
    expect(sent).not.toContain('!`echo');
  });

  it("a project command overrides the user's; its ! lines run only once the project is trusted", async () => {
    const project = setup();
    put(join(project.home, 'commands', 'review.md'), 'USER VERSION');
    put(
      join(project.root, '.claude', 'commands', 'review.md'),
      '---\nallowed-tools: Bash(echo:*)\n---\nPROJECT VERSION !`echo RAN-$1`',
    );
    const untrusted = await ask(project, '/review x');
    // The argument went into the ! line as quoted data.
    expect(untrusted.sent).toContain("PROJECT VERSION [!`echo RAN-'x'` not run: commands from an untrusted project");
    expect(untrusted.sent).not.toContain('USER VERSION');
    await server?.close();
    expect(
      (await runMca(['trust', project.root], { env: { MCA_HOME: project.home, HOME: project.userHome } })).code,
    ).toBe(0);
    const trusted = await ask(project, '/review x');
    expect(trusted.sent).toContain('PROJECT VERSION RAN-x');
  });

  it('gives subfolders a namespace, appends arguments to a body without placeholders, and keeps deny rules', async () => {
    const project = setup();
    put(join(project.root, '.mca', 'commands', 'git', 'commit.md'), 'Write a commit message. !`echo hi`');
    put(join(project.home, 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(echo:*)'] } }));
    await runMca(['trust'], { cwd: project.root, env: { MCA_HOME: project.home, HOME: project.userHome } });
    const { run, sent } = await ask(project, '/git:commit for the parser', ['--dangerously-skip-permissions']);
    expect(run.code, run.stderr).toBe(0);
    expect(sent).toMatch(/Write a commit message\. \[!`echo hi` not run: .*denied by the rule Bash\(echo:\*\)/);
    expect(sent).toContain('ARGUMENTS: for the parser');
  });

  it('a broken command file is skipped with one line; an unknown /word stays a plain prompt', async () => {
    const project = setup();
    put(join(project.root, '.mca', 'commands', 'bad.md'), '---\n: [unclosed\n---\nbody');
    const { run, sent } = await ask(project, '/usr/bin/env explain this');
    expect(run.code, run.stderr).toBe(0);
    expect(sent).toContain('/usr/bin/env explain this');
    expect(run.stderr.split('\n').filter((line) => line.includes('bad'))).toHaveLength(1);
    expect(run.stderr).toMatch(/ignored command \/bad .*frontmatter is not valid YAML/);
  });
});

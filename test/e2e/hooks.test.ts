/**
 * Hooks through the built binary (`mca -p` against the loopback fake model), with real hook scripts in a temp
 * project and user home: what each hook read, what ran, and what the model's next request carries.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakeStep } from '../helpers/fake-anthropic-server.js';
import { act, finish } from './support/agent-script.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-hooks-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Setup {
  root: string;
  home: string;
  userHome: string;
}

/** A project with executable scripts under `hooks/` and files; HOME and MCA_HOME are temp directories. */
function setup(scripts: Record<string, string>, files: Record<string, string> = {}): Setup {
  const project = tempProject('mca-hooks-e2e-', files);
  const userHome = join(dirname(project.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  mkdirSync(join(project.root, 'hooks'));
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(project.root, 'hooks', name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(project.root, 'hooks', name), 0o755);
  }
  return { ...project, userHome };
}

/** Writes the user's `$MCA_HOME/settings.json` (the user's own hooks run in every project). */
function userHooks(project: Setup, hooks: Record<string, unknown>): void {
  mkdirSync(project.home, { recursive: true });
  writeFileSync(join(project.home, 'settings.json'), JSON.stringify({ hooks }));
}

function group(command: string, matcher?: string, timeout?: number): unknown[] {
  return [
    {
      ...(matcher === undefined ? {} : { matcher }),
      hooks: [{ type: 'command', command, ...(timeout === undefined ? {} : { timeout }) }],
    },
  ];
}

async function run(project: Setup, script: FakeStep[], args: string[] = [], prompt = 'go') {
  server = await startFakeAnthropic(script);
  return runMca(['-p', prompt, ...args], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: project.home,
      HOME: project.userHome,
    },
    timeoutMs: 60_000,
  });
}

/** Everything the model was shown in request `index` (user text of every message). */
function requestText(index: number): string {
  const body = server?.requests[index]?.body;
  if (!body) throw new Error(`no request ${index}`);
  return userText(body);
}

function readJsonLines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('PreToolUse through mca -p', () => {
  it('exit 2 blocks a Bash call: the command does not run and the model reads the stderr reason', async () => {
    const project = setup({
      'guard.sh': 'grep -q "rm -rf" && { echo "rm -rf is not allowed here" >&2; exit 2; }; exit 0',
    });
    userHooks(project, { PreToolUse: group('hooks/guard.sh', 'Bash') });
    const result = await run(
      project,
      [act('clean', 'Bash', { command: 'touch ran.txt; rm -rf x' }), finish('done', 'ok')],
      ['--dangerously-skip-permissions'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(project.root, 'ran.txt'))).toBe(false);
    expect(requestText(1)).toContain('rm -rf is not allowed here');
  });

  it('JSON deny reaches the model; ask becomes a denial in -p; a hook allow never beats a deny rule', async () => {
    const project = setup({
      'decide.sh': [
        'input=$(cat)',
        'case "$input" in',
        '  *deny-me*) echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy says no"}}\' ;;',
        '  *ask-me*) echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"a human must look"}}\' ;;',
        '  *) echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\' ;;',
        'esac',
      ].join('\n'),
    });
    userHooks(project, { PreToolUse: group('hooks/decide.sh', 'Bash') });
    const result = await run(
      project,
      [
        act('a', 'Bash', { command: 'echo deny-me > denied.txt' }),
        act('b', 'Bash', { command: 'echo ask-me > asked.txt' }),
        act('c', 'Bash', { command: 'echo fine > allowed.txt' }),
        act('d', 'Bash', { command: 'echo forbidden > forbidden.txt' }),
        finish('done', 'ok'),
      ],
      ['--disallowedTools', 'Bash(echo forbidden:*)', '--output-format', 'json'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(requestText(1)).toContain('policy says no');
    expect(requestText(2)).toContain('PERMISSION_DENIED');
    expect(existsSync(join(project.root, 'denied.txt'))).toBe(false);
    expect(existsSync(join(project.root, 'asked.txt'))).toBe(false);
    // The hook's allow lets an asking tool run in -p ...
    expect(readFileSync(join(project.root, 'allowed.txt'), 'utf8')).toBe('fine\n');
    // ... but never past a deny rule.
    expect(existsSync(join(project.root, 'forbidden.txt'))).toBe(false);
    const denials = (JSON.parse(result.stdout) as { permission_denials: unknown[] }).permission_denials;
    expect(denials).toHaveLength(3);
  });

  it('updatedInput in Claude Code names replaces the call before it runs', async () => {
    const project = setup({
      'rewrite.sh':
        'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten > rewritten.txt","timeout":5000}}}\'',
    });
    userHooks(project, { PreToolUse: group('hooks/rewrite.sh', 'Bash') });
    const result = await run(project, [
      act('a', 'Bash', { command: 'echo original > original.txt' }),
      finish('d', 'ok'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(project.root, 'original.txt'))).toBe(false);
    expect(readFileSync(join(project.root, 'rewritten.txt'), 'utf8')).toBe('rewritten\n');
  });
});

describe('continue: false through mca -p', () => {
  it('a PreToolUse continue:false stops the call and ends the turn with the reason shown', async () => {
    const project = setup({ 'halt.sh': 'echo \'{"continue":false,"stopReason":"budget reached"}\'' });
    userHooks(project, { PreToolUse: group('hooks/halt.sh', 'Bash') });
    const result = await run(
      project,
      [act('a', 'Bash', { command: 'touch ran.txt' }), finish('d', 'never reached')],
      ['--dangerously-skip-permissions'],
    );
    expect(existsSync(join(project.root, 'ran.txt'))).toBe(false);
    expect(server?.requests).toHaveLength(1);
    expect(result.stderr).toContain('a PreToolUse hook ended the turn: budget reached');
    expect(result.stdout).not.toContain('never reached');
  });
});

describe('other events through mca -p', () => {
  it('PostToolUse receives the absolute file_path of an Edit and the tool_use_id', async () => {
    const project = setup(
      {
        'log.sh':
          'cat >> "$CLAUDE_PROJECT_DIR/post.jsonl"; echo \'{"decision":"block","reason":"run the formatter on it"}\'',
      },
      { 'a.txt': 'hello\n' },
    );
    userHooks(project, { PostToolUse: group('hooks/log.sh', 'Edit|Write') });
    const result = await run(
      project,
      [
        act('read', 'Read', { path: 'a.txt' }),
        act('edit', 'Edit', { path: 'a.txt', old_string: 'hello', new_string: 'bye' }),
        finish('done', 'ok'),
      ],
      ['--permission-mode', 'acceptEdits'],
    );
    expect(result.code, result.stderr).toBe(0);
    const [post] = readJsonLines(join(project.root, 'post.jsonl'));
    expect(post).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: join(project.root, 'a.txt'), old_string: 'hello', new_string: 'bye' },
      tool_response: { filePath: join(project.root, 'a.txt') },
    });
    expect(post?.tool_use_id).toMatch(/^toolu_/);
    expect(post?.session_id).toEqual(expect.any(String));
    // A PostToolUse block's reason reaches the model with the Edit's result.
    expect(requestText(2)).toContain('run the formatter on it');
  });

  it('UserPromptSubmit stdout and SessionStart additionalContext reach the model; SessionEnd runs at the end', async () => {
    const project = setup({
      'prompt.sh': 'echo "ticket ABC-123 is in progress"',
      'start.sh':
        'echo \'{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"you are on branch feature-x"}}\'',
    });
    userHooks(project, {
      UserPromptSubmit: group('hooks/prompt.sh'),
      SessionStart: group('hooks/start.sh', 'startup'),
      SessionEnd: group('cat > "$CLAUDE_PROJECT_DIR/end.json"'),
    });
    const result = await run(project, [finish('done', 'ok')]);
    expect(result.code, result.stderr).toBe(0);
    expect(requestText(0)).toContain('ticket ABC-123 is in progress');
    expect(requestText(0)).toContain('you are on branch feature-x');
    expect(JSON.parse(readFileSync(join(project.root, 'end.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'other',
    });
  });

  it('a UserPromptSubmit block erases the prompt: the model is never asked, the reason is shown', async () => {
    const project = setup({ 'block.sh': 'echo "prompts may not name the secret" >&2; exit 2' });
    userHooks(project, { UserPromptSubmit: group('hooks/block.sh') });
    const result = await run(project, [finish('done', 'ok')], [], 'the secret is 42');
    expect(result.code).not.toBe(0);
    expect(server?.requests).toHaveLength(0);
    expect(result.stderr).toContain('prompts may not name the secret');
  });

  it('a Stop block makes the agent go on once, with stop_hook_active true on the next stop', async () => {
    const project = setup({
      'stop.sh': 'cat >> "$CLAUDE_PROJECT_DIR/stops.jsonl"; echo "run the tests before you stop" >&2; exit 2',
    });
    userHooks(project, { Stop: group('hooks/stop.sh') });
    const result = await run(project, [
      finish('first', 'first answer'),
      finish('second', 'second answer'),
      finish('x', 'never'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('second answer\n');
    expect(server?.requests).toHaveLength(2);
    expect(requestText(1)).toContain('run the tests before you stop');
    expect(readJsonLines(join(project.root, 'stops.jsonl')).map((stop) => stop.stop_hook_active)).toEqual([
      false,
      true,
    ]);
  });

  it('a hanging hook is killed at its timeout and the run goes on with a notice', async () => {
    const project = setup({ 'hang.sh': 'sleep 600' });
    userHooks(project, { PreToolUse: group('hooks/hang.sh', 'LS', 1) });
    const result = await run(project, [act('look', 'LS', { path: '.' }), finish('done', 'ok')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('ok\n');
    expect(result.stderr).toContain('PreToolUse hook "hooks/hang.sh" timed out after 1 s and was stopped');
  });
});

describe('trust and hostile hooks', () => {
  it("an untrusted project's hooks never run while the user's do; trusted, both run", async () => {
    const project = setup({ 'mark.sh': 'echo "$1" >> "$CLAUDE_PROJECT_DIR/marks.txt"' });
    userHooks(project, { UserPromptSubmit: group('hooks/mark.sh user') });
    mkdirSync(join(project.root, '.claude'));
    writeFileSync(
      join(project.root, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: group('hooks/mark.sh project') } }),
    );
    const untrusted = await run(project, [finish('done', 'ok')]);
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(readFileSync(join(project.root, 'marks.txt'), 'utf8')).toBe('user\n');
    expect(untrusted.stderr).toContain('this project is not trusted');
    await server?.close();
    const trust = await runMca(['trust'], {
      cwd: project.root,
      env: { MCA_HOME: project.home, HOME: project.userHome },
    });
    expect(trust.code, trust.stderr).toBe(0);
    const trusted = await run(project, [finish('done', 'ok')]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(readFileSync(join(project.root, 'marks.txt'), 'utf8').split('\n').sort()).toEqual([
      '',
      'project',
      'user',
      'user',
    ]);
  });

  it('hostile output (huge, binary, escape sequences, invalid JSON) is handled with a clear notice', async () => {
    const project = setup({
      'huge.sh': 'head -c 3000000 /dev/zero | tr "\\0" "a"',
      'binary.sh': 'printf "\\000\\001binary"',
      'escape.sh': 'printf "\\033]0;pwned\\007\\033[2J{" ; exit 0',
      'ansi.sh': 'printf "\\033]52;c;aGk=\\007bad" >&2; exit 1',
    });
    userHooks(project, {
      UserPromptSubmit: [
        ...group('hooks/huge.sh'),
        ...group('hooks/binary.sh'),
        ...group('hooks/escape.sh'),
        ...group('hooks/ansi.sh'),
      ],
    });
    const result = await run(project, [finish('done', 'ok')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('ok\n');
    expect(result.stderr).toContain('printed 3000000 bytes on stdout; only the first 1048576 were read');
    expect(result.stderr).toContain('hooks/binary.sh" printed binary stdout');
    expect(result.stderr).toContain('hooks/ansi.sh" failed (exit 1): ␛]52;c;aGk=␇bad');
    expect(result.stderr).not.toContain('\u001b');
    const prompt = requestText(0);
    expect(prompt).not.toContain('\u001b');
    expect(prompt).toContain('␛]0;pwned␇');
    expect(prompt.length).toBeLessThan(60_000);
  });
});

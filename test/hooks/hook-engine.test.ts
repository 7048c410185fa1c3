/**
 * The engine with real hook scripts in a temp project: what each hook reads on stdin, and what its exit code and
 * output make of the event.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookCommand } from '../../src/hooks/hook-config.js';
import { HookEngine } from '../../src/hooks/hook-engine.js';
import type { HookEvent, HookEventName, HookSessionInfo } from '../../src/hooks/hook-events.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { tempProject } from '../helpers/temp-project.js';

const SESSION: HookSessionInfo = {
  sessionId: 'sess-1',
  transcriptPath: '/tmp/sess-1.jsonl',
  cwd: '/somewhere',
  permissionMode: 'default',
};

function hook(event: HookEventName, command: string, matcher = '', timeoutSec = 600): HookCommand {
  return { event, matcher, command, timeoutSec, source: '/u/settings.json', scope: 'user', key: `hooks.${event}[0]` };
}

/** A project with executable scripts `name` → body (a `#!/bin/sh` line is added). */
function project(scripts: Record<string, string> = {}): string {
  const { root } = tempProject('mca-hook-engine-');
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(root, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(root, name), 0o755);
  }
  return root;
}

/** Whether `pid` is a live process (a zombie nobody reaped is not: some container inits never reap). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

const bashCall = (command: string): HookEvent => ({
  name: 'PreToolUse',
  toolName: 'Bash',
  toolInput: { command, timeout_ms: 120000 },
  toolUseId: 'toolu_01',
});

describe('what a hook reads', () => {
  it('PreToolUse: the base fields and the call in Claude Code names, on stdin closed after the JSON', async () => {
    const root = project({
      'dump.sh': 'cat > "$CLAUDE_PROJECT_DIR/in.json"; pwd > cwd.txt; echo "$MCA_PROJECT_DIR" > env.txt',
    });
    const engine = new HookEngine([hook('PreToolUse', './dump.sh')], { projectRoot: root });
    const result = await engine.run(
      {
        name: 'PreToolUse',
        toolName: 'Read',
        toolInput: { path: 'src/a.ts', start_line: 1, limit: 500 },
        toolUseId: 'toolu_9',
      },
      SESSION,
    );
    expect(result.ran).toBe(1);
    expect(result.decision).toBeUndefined();
    expect(JSON.parse(readFileSync(join(root, 'in.json'), 'utf8'))).toEqual({
      session_id: 'sess-1',
      transcript_path: '/tmp/sess-1.jsonl',
      cwd: '/somewhere',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: join(root, 'src/a.ts'), offset: 1, limit: 500 },
      tool_use_id: 'toolu_9',
    });
    expect(readFileSync(join(root, 'cwd.txt'), 'utf8').trim()).toBe(root);
    expect(readFileSync(join(root, 'env.txt'), 'utf8').trim()).toBe(root);
  });

  it('PostToolUse gets the absolute file_path and the tool_response; session events their own fields', async () => {
    const root = project({ 'dump.sh': 'cat >> "$CLAUDE_PROJECT_DIR/in.jsonl"' });
    const engine = new HookEngine(
      ['PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionStart', 'SessionEnd', 'PreCompact', 'Notification'].map(
        (event) => hook(event as HookEventName, './dump.sh'),
      ),
      { projectRoot: root },
    );
    const envelope = successEnvelope({ path: 'a.txt', applied: true, replacements: 1, diff: '' }, 'ok');
    const events: HookEvent[] = [
      {
        name: 'PostToolUse',
        toolName: 'Edit',
        toolInput: { path: 'a.txt', old_string: 'a', new_string: 'b', replace_all: false },
        toolUseId: 'toolu_2',
        envelope,
      },
      { name: 'UserPromptSubmit', prompt: 'fix it' },
      { name: 'Stop', stopHookActive: false, lastAssistantMessage: 'done' },
      { name: 'SessionStart', source: 'resume' },
      { name: 'SessionEnd', reason: 'prompt_input_exit' },
      { name: 'PreCompact', trigger: 'auto', customInstructions: '' },
      { name: 'Notification', message: 'mca needs your permission', notificationType: 'permission_prompt' },
    ];
    for (const event of events) await engine.run(event, SESSION);
    const lines = readFileSync(join(root, 'in.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_input: { file_path: join(root, 'a.txt'), old_string: 'a', new_string: 'b' },
      tool_response: { filePath: join(root, 'a.txt') },
      tool_use_id: 'toolu_2',
    });
    expect(
      lines.slice(1).map(({ session_id: _s, transcript_path: _t, cwd: _c, permission_mode: _p, ...rest }) => rest),
    ).toEqual([
      { hook_event_name: 'UserPromptSubmit', prompt: 'fix it' },
      { hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' },
      { hook_event_name: 'SessionStart', source: 'resume' },
      { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' },
      { hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' },
      { hook_event_name: 'Notification', message: 'mca needs your permission', notification_type: 'permission_prompt' },
    ]);
  });

  it('matchers select by tool name and by source; identical commands run once', async () => {
    const root = project({ 'count.sh': 'echo x >> "$CLAUDE_PROJECT_DIR/runs.txt"' });
    const engine = new HookEngine(
      [
        hook('PreToolUse', './count.sh', 'Bash'),
        hook('PreToolUse', './count.sh', ''),
        hook('PreToolUse', './count.sh', 'Edit|Write'),
        hook('SessionStart', './count.sh', 'compact'),
      ],
      { projectRoot: root },
    );
    expect((await engine.run(bashCall('ls'), SESSION)).ran).toBe(1);
    expect(readFileSync(join(root, 'runs.txt'), 'utf8')).toBe('x\n');
    expect((await engine.run({ name: 'SessionStart', source: 'startup' }, SESSION)).ran).toBe(0);
    expect(readFileSync(join(root, 'runs.txt'), 'utf8')).toBe('x\n');
    expect(engine.list().map((entry) => entry.last?.summary.split(' ')[0])).toEqual(['ok', 'ok', undefined, undefined]);
  });
});

describe('what a hook answers', () => {
  it('exit 2 denies a tool call with stderr as the reason; stdout is not read then', async () => {
    const root = project({
      'guard.sh': 'echo \'{"hookSpecificOutput":{"permissionDecision":"allow"}}\'; echo "no rm -rf here" >&2; exit 2',
    });
    const engine = new HookEngine([hook('PreToolUse', './guard.sh', 'Bash')], { projectRoot: root });
    const result = await engine.run(bashCall('rm -rf /'), SESSION);
    expect(result.decision).toBe('deny');
    expect(result.reason).toBe('no rm -rf here');
    expect(result.messages).toEqual([]);
  });

  it('JSON permissionDecision: deny beats ask beats allow, and the deciders give the reason', async () => {
    const root = project({
      'allow.sh':
        'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}\'',
      'ask.sh':
        'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check this"}}\'',
      'deny.sh':
        'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"never"}}\'',
    });
    const run = (scripts: string[]) =>
      new HookEngine(
        scripts.map((script) => hook('PreToolUse', script)),
        { projectRoot: root },
      ).run(bashCall('x'), SESSION);
    expect(await run(['./allow.sh'])).toMatchObject({ decision: 'allow', reason: 'fine' });
    expect(await run(['./allow.sh', './ask.sh'])).toMatchObject({ decision: 'ask', reason: 'check this' });
    expect(await run(['./ask.sh', './deny.sh', './allow.sh'])).toMatchObject({ decision: 'deny', reason: 'never' });
  });

  it('updatedInput in Claude Code names comes back in mca names', async () => {
    const root = project({
      'rewrite.sh':
        'echo \'{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"file_path":"\'"$CLAUDE_PROJECT_DIR"\'/safe.txt","content":"redacted"}}}\'',
    });
    const engine = new HookEngine([hook('PreToolUse', './rewrite.sh', 'Write')], { projectRoot: root });
    const result = await engine.run(
      { name: 'PreToolUse', toolName: 'Write', toolInput: { path: 'secret.txt', content: 'key' }, toolUseId: 't' },
      SESSION,
    );
    expect(result.decision).toBe('allow');
    expect(result.updatedInput).toEqual({ path: 'safe.txt', content: 'redacted' });
  });

  it('UserPromptSubmit: plain stdout and additionalContext are context; exit 2 blocks with the reason', async () => {
    const root = project({
      'plain.sh': 'echo "ticket ABC-1 is open"',
      'json.sh':
        'echo \'{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"branch main"}}\'',
      'block.sh': 'echo "no secrets in prompts" >&2; exit 2',
    });
    const both = new HookEngine([hook('UserPromptSubmit', './plain.sh'), hook('UserPromptSubmit', './json.sh')], {
      projectRoot: root,
    });
    const result = await both.run({ name: 'UserPromptSubmit', prompt: 'hi' }, SESSION);
    expect(result.context).toEqual(['ticket ABC-1 is open', 'branch main']);
    expect(result.decision).toBeUndefined();
    const blocker = new HookEngine([hook('UserPromptSubmit', './block.sh')], { projectRoot: root });
    expect(await blocker.run({ name: 'UserPromptSubmit', prompt: 'key=1' }, SESSION)).toMatchObject({
      decision: 'block',
      reason: 'no secrets in prompts',
    });
  });

  it('plain stdout of a tool event is not context; Stop decision block gives the reason', async () => {
    const root = project({
      'talk.sh': 'echo "just talking"',
      'stop.sh': 'echo \'{"decision":"block","reason":"tests fail; fix them"}\'',
    });
    const engine = new HookEngine([hook('PreToolUse', './talk.sh'), hook('Stop', './stop.sh')], { projectRoot: root });
    expect((await engine.run(bashCall('ls'), SESSION)).context).toEqual([]);
    expect(
      await engine.run({ name: 'Stop', stopHookActive: false, lastAssistantMessage: 'done' }, SESSION),
    ).toMatchObject({ decision: 'block', reason: 'tests fail; fix them' });
  });

  it('continue:false stops with its reason; systemMessage is shown; other exits are notices and the run goes on', async () => {
    const root = project({
      'halt.sh': 'echo \'{"continue":false,"stopReason":"budget reached","systemMessage":"hook says hi"}\'',
      'broken.sh': 'echo "oops" >&2; exit 1',
    });
    const engine = new HookEngine([hook('PostToolUse', './halt.sh'), hook('PostToolUse', './broken.sh')], {
      projectRoot: root,
    });
    const result = await engine.run(
      {
        name: 'PostToolUse',
        toolName: 'LS',
        toolInput: { path: '.' },
        toolUseId: 't',
        envelope: successEnvelope({}, ''),
      },
      SESSION,
    );
    expect(result.stop).toEqual({ reason: 'budget reached' });
    expect(result.decision).toBeUndefined();
    expect(result.messages).toEqual(['hook says hi', 'PostToolUse hook "./broken.sh" failed (exit 1): oops']);
  });
});

describe('hostile and stuck hooks', () => {
  it('a hanging hook is stopped at its timeout with its whole process group, and the run goes on', async () => {
    const root = project({ 'hang.sh': 'sleep 300 & echo $! > "$CLAUDE_PROJECT_DIR/child.pid"; wait' });
    const engine = new HookEngine([hook('PreToolUse', './hang.sh', '', 1)], { projectRoot: root });
    const result = await engine.run(bashCall('ls'), SESSION);
    expect(result.decision).toBeUndefined();
    expect(result.messages).toEqual(['PreToolUse hook "./hang.sh" timed out after 1 s and was stopped']);
    const child = Number(readFileSync(join(root, 'child.pid'), 'utf8'));
    expect(alive(child)).toBe(false);
    expect(engine.list()[0]?.last?.summary).toBe('timed out after 1 s');
  });

  it('hooks of one event run in parallel: two that wait for each other both finish', async () => {
    const wait = (mine: string, other: string) =>
      `touch "$CLAUDE_PROJECT_DIR/${mine}"; i=0; while [ ! -e "$CLAUDE_PROJECT_DIR/${other}" ]; do i=$((i+1)); [ $i -gt 200 ] && exit 1; sleep 0.05; done; exit 0`;
    const root = project({ 'a.sh': wait('a', 'b'), 'b.sh': wait('b', 'a') });
    const engine = new HookEngine([hook('Stop', './a.sh'), hook('Stop', './b.sh')], { projectRoot: root });
    const result = await engine.run({ name: 'Stop', stopHookActive: false, lastAssistantMessage: '' }, SESSION);
    expect(result.messages).toEqual([]);
    expect(result.outcomes.map((outcome) => outcome.kind)).toEqual(['success', 'success']);
  });

  it('huge, binary, escape-laden and invalid-JSON output each give a clear notice, never a crash', async () => {
    const root = project({
      'huge.sh': 'head -c 3000000 /dev/zero | tr "\\0" "a"',
      'binary.sh': 'printf "\\000\\001\\002binary"',
      'escape.sh': 'printf "\\033]0;pwned\\007\\033[2Jcontext"',
      'badjson.sh': 'echo "{\\"decision\\": "',
      'escdeny.sh': 'printf "\\033[31mred reason\\033[0m" >&2; exit 2',
    });
    const run = (script: string, event: HookEvent = { name: 'UserPromptSubmit', prompt: 'p' }) =>
      new HookEngine([hook(event.name, script)], { projectRoot: root }).run(event, SESSION);

    const huge = await run('./huge.sh');
    expect(huge.messages).toEqual([
      'UserPromptSubmit hook "./huge.sh" printed 3000000 bytes on stdout; only the first 1048576 were read',
    ]);
    expect(huge.context[0]?.length).toBeLessThan(10_100);
    expect(huge.context[0]).toMatch(/more characters cut\]$/);

    const binary = await run('./binary.sh');
    expect(binary.messages).toEqual([
      'UserPromptSubmit hook "./binary.sh" printed binary stdout (9 bytes); it was ignored',
    ]);
    expect(binary.context).toEqual([]);

    const escape = await run('./escape.sh');
    expect(escape.context).toEqual(['␛]0;pwned␇␛[2Jcontext']);

    const bad = await run('./badjson.sh');
    expect(bad.messages[0]).toMatch(
      /^UserPromptSubmit hook "\.\/badjson\.sh" printed invalid JSON \(.*\); read as plain text$/,
    );

    const deny = await run('./escdeny.sh', bashCall('ls'));
    expect(deny).toMatchObject({ decision: 'deny', reason: '␛[31mred reason␛[0m' });
  });

  it('a hook that does not read stdin, or cannot run, is a notice; interrupting ends it', async () => {
    const root = project({ 'ignore.sh': 'exit 0' });
    const engine = new HookEngine([hook('PreToolUse', './ignore.sh'), hook('PreToolUse', './missing.sh')], {
      projectRoot: root,
    });
    const big: HookEvent = {
      name: 'PreToolUse',
      toolName: 'Write',
      toolInput: { path: 'a', content: 'x'.repeat(2_000_000) },
      toolUseId: 't',
    };
    const result = await engine.run(big, SESSION);
    expect(result.outcomes.map((outcome) => outcome.kind)).toEqual(['success', 'failed']);
    expect(result.messages[0]).toMatch(/^PreToolUse hook "\.\/missing\.sh" failed \(exit 127\): .*not found/);

    const slow = project({ 'slow.sh': 'touch "$CLAUDE_PROJECT_DIR/started"; sleep 300' });
    const controller = new AbortController();
    const pending = new HookEngine([hook('Stop', './slow.sh')], { projectRoot: slow }).run(
      { name: 'Stop', stopHookActive: false, lastAssistantMessage: '' },
      SESSION,
      controller.signal,
    );
    while (!existsSync(join(slow, 'started'))) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect((await pending).outcomes[0]?.kind).toBe('aborted');
  });
});

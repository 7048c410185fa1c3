import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hooksReport, trustLines } from '../../src/hooks/hook-listing.js';
import { loadHooks, openHooks } from '../../src/hooks/hook-sources.js';
import { reminder, SessionHooks } from '../../src/hooks/session-hooks.js';
import { errorEnvelope, successEnvelope } from '../../src/tools/registry/envelope.js';
import { tempProject } from '../helpers/temp-project.js';

const INFO = { sessionId: 's', transcriptPath: '/t.jsonl', cwd: '/c', permissionMode: 'plan' };

async function sessionWith(hooks: Record<string, unknown>, scripts: Record<string, string>) {
  const { root, home } = tempProject('mca-session-hooks-');
  const userHome = join(dirname(root), 'userhome');
  mkdirSync(userHome);
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(root, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(root, name), 0o755);
  }
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks }));
  const options = { projectRoot: root, mcaHome: home, home: userHome, trusted: false };
  const opened = await openHooks(options);
  const lines: string[] = [];
  return {
    root,
    home,
    lines,
    hooks: new SessionHooks(
      opened.loaded,
      opened.engine,
      () => INFO,
      (line) => lines.push(line),
    ),
  };
}

const group = (command: string, matcher?: string) => [
  { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] },
];

describe('SessionHooks', () => {
  it("the user's own ! lines never run hooks; a model's and a custom command's calls do", async () => {
    const { root, hooks } = await sessionWith(
      { PreToolUse: group('./log.sh', 'Bash') },
      { 'log.sh': 'cat >> "$CLAUDE_PROJECT_DIR/seen.jsonl"' },
    );
    const call = { id: 'toolu_1', name: 'Bash', input: { command: 'ls' } };
    expect(await hooks.beforeTool({ ...call, source: 'user-shell' })).toEqual({ context: [] });
    expect(existsSync(join(root, 'seen.jsonl'))).toBe(false);
    await hooks.beforeTool({ ...call, source: 'model' });
    await hooks.beforeTool({ ...call, id: 'toolu_2', source: 'command' });
    const seen = readFileSync(join(root, 'seen.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(seen.map((input) => [input.tool_use_id, input.permission_mode])).toEqual([
      ['toolu_1', 'plan'],
      ['toolu_2', 'plan'],
    ]);
  });

  it("PreToolUse additionalContext reaches the model with the call's result", async () => {
    const { hooks } = await sessionWith(
      { PreToolUse: group('./pre.sh') },
      {
        'pre.sh':
          'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","additionalContext":"prefer rg"}}\'',
      },
    );
    const call = { id: 'toolu_7', name: 'Bash', input: { command: 'grep -r x' }, source: 'model' as const };
    expect(await hooks.beforeTool(call)).toEqual({ decision: 'allow', context: ['prefer rg'] });
    const after = await hooks.afterTool(call, successEnvelope({}, 'out'));
    expect(after.envelope.text).toBe(
      'out\n\n<system-reminder>\nPreToolUse hook additional context:\nprefer rg\n</system-reminder>',
    );
    expect((await hooks.afterTool(call, successEnvelope({}, 'again'))).envelope.text).toBe('again');
  });

  it('PermissionRequest hooks answer for the person: allow with updatedInput, deny with a message', async () => {
    const { hooks } = await sessionWith(
      { PermissionRequest: group('./answer.sh', 'Bash') },
      {
        'answer.sh': [
          'case "$(cat)" in',
          '  *publish*) echo \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no publishing"}}}\' ;;',
          '  *) echo \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"npm test --silent"}}}}\' ;;',
          'esac',
        ].join('\n'),
      },
    );
    const call = (command: string) => ({ id: 't', name: 'Bash', input: { command }, source: 'model' as const });
    expect(await hooks.permissionRequest(call('npm publish'))).toEqual({ decision: 'deny', reason: 'no publishing' });
    expect(await hooks.permissionRequest(call('npm test'))).toEqual({
      decision: 'allow',
      updatedInput: { command: 'npm test --silent' },
    });
    expect(await hooks.permissionRequest({ ...call('npm test'), source: 'user-shell' })).toEqual({});
  });

  it('after a call: PostToolUse for a result, PostToolUseFailure with the error for a failure', async () => {
    const { root, hooks } = await sessionWith(
      { PostToolUse: group('./log.sh'), PostToolUseFailure: group('./fail.sh') },
      {
        'log.sh': 'cat >> "$CLAUDE_PROJECT_DIR/post.jsonl"; echo \'{"decision":"block","reason":"lint failed"}\'',
        'fail.sh': 'cat >> "$CLAUDE_PROJECT_DIR/fail.jsonl"',
      },
    );
    const call = { id: 'toolu_1', name: 'Read', input: { path: 'a.ts' }, source: 'model' as const };
    const ok = await hooks.afterTool(call, successEnvelope({ path: 'a.ts', content: '1\tx' }, '1\tx'));
    expect(ok.envelope.text).toBe(
      '1\tx\n\n<system-reminder>\nPostToolUse hook additional context:\nlint failed\n</system-reminder>',
    );
    await hooks.afterTool(call, errorEnvelope('NOT_FOUND', 'a.ts does not exist'));
    expect(JSON.parse(readFileSync(join(root, 'fail.jsonl'), 'utf8'))).toMatchObject({
      hook_event_name: 'PostToolUseFailure',
      tool_use_id: 'toolu_1',
      error: 'a.ts does not exist',
      is_interrupt: false,
    });
    expect(JSON.parse(readFileSync(join(root, 'post.jsonl'), 'utf8'))).toMatchObject({
      tool_input: { file_path: join(root, 'a.ts') },
    });
  });

  it('a prompt block, a Stop block that continues, session context, notices to the user', async () => {
    const { hooks, lines } = await sessionWith(
      {
        UserPromptSubmit: group('./prompt.sh'),
        Stop: group('./stop.sh'),
        SessionStart: group('./start.sh', 'startup'),
        Notification: group('./notify.sh'),
      },
      {
        'prompt.sh': 'grep -q secret && { echo "no secrets" >&2; exit 2; }; echo "ctx"',
        'stop.sh': 'grep -q \'"stop_hook_active":true\' && exit 0; echo "run the tests first" >&2; exit 2',
        'start.sh':
          'echo \'{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"on branch x"}}\'',
        'notify.sh': 'exit 3',
      },
    );
    expect(await hooks.promptSubmitted('my secret')).toEqual({ blocked: 'no secrets', context: [] });
    expect(await hooks.promptSubmitted('fine')).toEqual({ context: ['ctx'] });
    expect(await hooks.stopping('done', false)).toEqual({ continueWith: 'run the tests first' });
    expect(await hooks.stopping('done again', true)).toEqual({});
    expect(await hooks.sessionStarted('startup')).toEqual(['on branch x']);
    expect(await hooks.sessionStarted('resume')).toEqual([]);
    await hooks.notification('waiting', 'idle_prompt');
    expect(lines).toEqual(['Notification hook "./notify.sh" failed (exit 3)']);
    expect(reminder('UserPromptSubmit', ['ctx'])).toBe(
      '<system-reminder>\nUserPromptSubmit hook additional context:\nctx\n</system-reminder>',
    );
    expect(reminder('UserPromptSubmit', [])).toBe('');
  });

  it('/hooks lists each hook with its file and last outcome, and what is held back', async () => {
    const { root, home, hooks } = await sessionWith({ Stop: group('./stop.sh') }, { 'stop.sh': 'exit 0' });
    mkdirSync(join(root, '.claude'));
    writeFileSync(
      join(root, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: group('./theirs.sh\nrm -rf x', 'Bash') } }),
    );
    const before = hooks.listing();
    expect(hooksReport(before.entries, before.loaded)).toEqual([
      'Hooks in effect (1):',
      '  Stop: ./stop.sh',
      `    from ${join(home, 'settings.json')} · not run yet`,
    ]);
    await hooks.stopping('x', false);
    const after = hooks.listing();
    expect(hooksReport(after.entries, after.loaded)[2]).toMatch(/ · last run \d\d:\d\d:\d\d: ok \(exit 0, \d+ ms\)$/);
    const untrusted = loadHooks({
      projectRoot: root,
      mcaHome: home,
      home: join(dirname(root), 'userhome'),
      trusted: false,
    });
    expect(trustLines(untrusted.pending)).toEqual([
      `hook PreToolUse [Bash]: ./theirs.sh ⏎ rm -rf x (${join(root, '.claude', 'settings.json')})`,
    ]);
    expect(hooksReport([], untrusted).slice(-2)).toEqual([
      'Held back until you trust this project (`mca trust`), 1:',
      `  PreToolUse [Bash]: ./theirs.sh ⏎ rm -rf x  (${join(root, '.claude', 'settings.json')})`,
    ]);
  });
});

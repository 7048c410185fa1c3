/**
 * The model's side of every tool: through the real loop (real tools, context engine, session store, a scripted
 * model), the exact observation text the NEXT request carries after each tool's success and each failure kind.
 * Goldens are inline and small so a reviewer can read what the model reads. Paths of the temp project are
 * replaced by <root>.
 */
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/events.js';
import { observationText } from '../../src/context/observation.js';
import type { ModelRequest } from '../../src/providers/types.js';
import { createHarness, lastTurnEnd } from '../helpers/agent-harness.js';
import { act, finish, reply } from '../helpers/scripted-provider.js';
import type { ScriptedStep } from '../helpers/scripted-provider.js';

/** The observation of the newest scratchpad step in a request, with the project path made stable. */
function lastObservation(request: ModelRequest | undefined, root: string): string {
  const steps = (request?.user ?? []).map((segment) => segment.text).filter((text) => text.includes('\nObservation: '));
  const newest = steps.at(-1) ?? '';
  return newest
    .slice(newest.indexOf('\nObservation: ') + '\nObservation: '.length)
    .split(root)
    .join('<root>');
}

async function observe(
  tool: string,
  input: unknown,
  options: {
    files?: Record<string, string>;
    env?: Record<string, string>;
    steps?: ScriptedStep[];
  } = {},
): Promise<string> {
  const h = await createHarness([...(options.steps ?? []), act(tool, input), finish('ok')], {
    files: options.files ?? {},
    ...(options.env ? { env: options.env } : {}),
  });
  const end = lastTurnEnd(await h.turn('go'));
  expect(end.reason).toBe('finish');
  return lastObservation(h.provider.requests.at(-1), h.projectRoot);
}

describe('observations the model reads: Bash', () => {
  it('success: stdout and stderr', async () => {
    expect(await observe('Bash', { command: 'echo out; echo err >&2' })).toMatchInlineSnapshot(`
      "out
      [stderr]
      err"
    `);
  });

  it('a failing test run: exit code, the failure lines from stdout and stderr', async () => {
    const command = 'echo "FAIL test/a.test.js"; echo "  expected 2, got 3"; echo "npm ERR! Test failed" >&2; exit 1';
    expect(await observe('Bash', { command })).toMatchInlineSnapshot(`
      "Error [EXECUTION_ERROR]: Command exited with code 1.
      FAIL test/a.test.js
        expected 2, got 3
      [stderr]
      npm ERR! Test failed
      [exit code 1]"
    `);
  });

  it('a timeout keeps what the command printed before it was killed', async () => {
    expect(await observe('Bash', { command: 'echo started; sleep 5', timeout_ms: 300 })).toMatchInlineSnapshot(`
      "Error [TIMEOUT]: Command timed out after 300 ms and was killed.
      started"
    `);
  });

  it('an interrupt keeps what the command printed before it was killed', async () => {
    const h = await createHarness([act('Bash', { command: 'echo started; sleep 10' })]);
    const abort = new AbortController();
    const events: AgentEvent[] = [];
    for await (const event of h.agent.run('go', { signal: abort.signal })) {
      events.push(event);
      if (event.type === 'tool_start') setTimeout(() => abort.abort(), 300);
    }
    const end = events.find((event) => event.type === 'tool_end');
    expect(end?.type === 'tool_end' ? observationText(end.result) : '').toMatchInlineSnapshot(`
      "Error [EXECUTION_ERROR]: Command interrupted by the user and killed.
      started"
    `);
    expect(lastTurnEnd(events).reason).toBe('interrupted');
    // The history keeps the compressed form for the next turn: exit status and the output's head.
    const stored = JSON.parse(h.agent.history().find((message) => message.role === 'tool')?.content ?? '{}');
    expect(stored).toMatchObject({ status: 'error', data: { stdout_head: 'started\n', interrupted: true } });
  });

  it('killed by a signal', async () => {
    expect(await observe('Bash', { command: 'echo before; kill -9 $$' })).toMatchInlineSnapshot(`
      "Error [EXECUTION_ERROR]: Command was killed by SIGKILL.
      before
      [exit code none, signal SIGKILL]"
    `);
  });

  it('big output keeps head and tail with the cut marked, also on failure', async () => {
    const text = await observe('Bash', { command: 'seq 1 20000; exit 3' });
    expect(text).toMatch(/^Error \[EXECUTION_ERROR\]: Command exited with code 3\.\n1\n2\n3\n/);
    expect(text).toMatch(/\n… \[\d+ chars truncated\] …\n/);
    expect(text).toMatch(/\n19999\n20000\n\[exit code 3\]$/);
  });

  it('invalid parameters', async () => {
    expect(await observe('Bash', { command: '' })).toMatchInlineSnapshot(
      `"Error [INVALID_PARAM]: Invalid input for Bash: "command" is too small (expected string to have >=1 characters)."`,
    );
  });
});

describe('observations the model reads: file tools', () => {
  it('Read success, NOT_FOUND, IS_DIRECTORY, BINARY_FILE, ACCESS_DENIED', async () => {
    const files = { 'a.txt': 'one\ntwo\n', 'dir/x.txt': 'x', 'bin.dat': '\u0000\u0001\u0002binary' };
    expect(await observe('Read', { path: 'a.txt' }, { files })).toMatchInlineSnapshot(`
      "1	one
      2	two"
    `);
    expect(await observe('Read', { path: 'nope.txt' }, { files })).toMatchInlineSnapshot(
      `"Error [NOT_FOUND]: File not found: nope.txt. Use Glob or LS to find it."`,
    );
    expect(await observe('Read', { path: 'dir' }, { files })).toMatchInlineSnapshot(
      `"Error [IS_DIRECTORY]: dir is a directory; use LS to list it."`,
    );
    expect(await observe('Read', { path: 'bin.dat' }, { files })).toMatchInlineSnapshot(
      `"Error [BINARY_FILE]: bin.dat is a binary file (9 bytes); Read only shows text."`,
    );
    expect(await observe('Read', { path: '../outside.txt' }, { files })).toMatchInlineSnapshot(
      `"Error [ACCESS_DENIED]: "../outside.txt" is outside the project root (<root>); only paths inside the project are allowed"`,
    );
  });

  it('Write: created, and CONFLICT for an existing file that was not read', async () => {
    expect(await observe('Write', { path: 'new.txt', content: 'hello\n' })).toMatchInlineSnapshot(
      `"Created new.txt (1 lines, 6 bytes)."`,
    );
    expect(
      await observe('Write', { path: 'a.txt', content: 'x' }, { files: { 'a.txt': 'old' } }),
    ).toMatchInlineSnapshot(
      `"Error [CONFLICT]: a.txt already exists and has not been read in this session. Read it first, then retry."`,
    );
  });

  it('Edit: applied, old_string not found, ambiguous, changed on disk since the read', async () => {
    const files = { 'a.ts': 'const a = 1;\nconst b = 1;\n' };
    const read = [act('Read', { path: 'a.ts' })];
    expect(
      await observe(
        'Edit',
        { path: 'a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' },
        { files, steps: read },
      ),
    ).toMatchInlineSnapshot(`
      "Edited a.ts (1 replacement).
      --- a/a.ts
      +++ b/a.ts
      @@ -1,2 +1,2 @@
      -const a = 1;
      +const a = 2;
       const b = 1;"
    `);
    expect(
      await observe('Edit', { path: 'a.ts', old_string: 'nothing like this', new_string: 'x' }, { files, steps: read }),
    ).toMatchInlineSnapshot(
      `"Error [INVALID_PARAM]: Edit of a.ts failed: old_string was not found. Read the file again and copy the exact text to replace."`,
    );
    expect(
      await observe('Edit', { path: 'a.ts', old_string: '= 1;', new_string: '= 2;' }, { files, steps: read }),
    ).toMatchInlineSnapshot(
      `"Error [INVALID_PARAM]: Edit of a.ts failed: old_string was found 2 times; add surrounding context to make it unique, or set replace_all: true to replace all 2."`,
    );
    // The file changes on disk between the Read and the Edit (when the model is asked for its next step).
    let root = '';
    const changed = await createHarness(
      [
        act('Read', { path: 'a.ts' }),
        () => {
          const target = join(root, 'a.ts');
          writeFileSync(target, 'const a = 1;\nconst b = 1;\n// changed\n');
          const later = new Date(Date.now() + 60_000);
          utimesSync(target, later, later);
          return act('Edit', { path: 'a.ts', old_string: 'const a = 1;', new_string: 'x' });
        },
        finish('ok'),
      ],
      { files },
    );
    root = changed.projectRoot;
    await changed.turn('go');
    expect(lastObservation(changed.provider.requests.at(-1), root)).toMatchInlineSnapshot(
      `"Error [CONFLICT]: a.ts was modified externally since you last read it. Read it again, then retry with the current content."`,
    );
  });

  it('MultiEdit: applied, and one edit not found (nothing written)', async () => {
    const files = { 'm.ts': 'a\nb\nc\n' };
    const multiEdit = (second: string) =>
      observe(
        'MultiEdit',
        {
          path: 'm.ts',
          edits: [
            { old_string: 'a', new_string: 'A' },
            { old_string: second, new_string: 'C' },
          ],
        },
        { files, steps: [act('Read', { path: 'm.ts' })] },
      );
    expect(await multiEdit('c')).toMatchInlineSnapshot(`
      "Applied 2 edits to m.ts (2 replacements).
      --- a/m.ts
      +++ b/m.ts
      @@ -1,3 +1,3 @@
      -a
      +A
       b
      -c
      +C"
    `);
    expect(await multiEdit('zzz')).toMatchInlineSnapshot(
      `"Error [INVALID_PARAM]: MultiEdit of m.ts failed at edits[1]: old_string was not found. Read the file again and copy the exact text to replace. No edit was applied; the file is unchanged."`,
    );
  });
});

describe('observations the model reads: search tools, todos, protocol errors', () => {
  const files = { 'src/a.ts': 'export const alpha = 1;\n', 'src/b.ts': 'export const beta = 2;\n' };

  it('LS, Glob and Grep: success and failure', async () => {
    expect(await observe('LS', { path: 'src' }, { files })).toMatchInlineSnapshot(`
      "src/ (2 entries)
        a.ts
        b.ts"
    `);
    expect(await observe('LS', { path: 'missing' }, { files })).toMatchInlineSnapshot(
      `"Error [NOT_FOUND]: Directory not found: missing."`,
    );
    expect(await observe('Glob', { pattern: 'src/a*.ts' }, { files })).toMatchInlineSnapshot(`
      "1 file matches src/a*.ts in the project root (newest first):
      src/a.ts"
    `);
    expect(await observe('Glob', { pattern: '**/*.py' }, { files })).toMatchInlineSnapshot(
      `"No files match **/*.py in the project root."`,
    );
    expect(await observe('Grep', { pattern: 'alpha' }, { files })).toMatchInlineSnapshot(`
      "1 matching line for /alpha/ in the project root:
      src/a.ts
        1: export const alpha = 1;"
    `);
    expect(await observe('Grep', { pattern: 'gamma' }, { files })).toMatchInlineSnapshot(
      `"No matches for /gamma/ in the project root."`,
    );
    // The wording is the engine's (ripgrep or the JS fallback); both name the pattern and the problem.
    expect(await observe('Grep', { pattern: '(unclosed' }, { files })).toMatch(
      /^Error \[INVALID_PARAM\]: Invalid [^\n]*\(unclosed[^\n]*group$/,
    );
  });

  it('TodoWrite success and two in_progress items', async () => {
    const todos = [
      { content: 'fix it', status: 'in_progress' },
      { content: 'test it', status: 'pending' },
    ];
    expect(await observe('TodoWrite', { todos })).toMatchInlineSnapshot(`
      "Todos updated: [0/2] done · now: fix it
      [>] fix it
      [ ] test it"
    `);
    const two = todos.map((todo) => ({ ...todo, status: 'in_progress' }));
    expect(await observe('TodoWrite', { todos: two })).toMatchInlineSnapshot(
      `"Error [INVALID_PARAM]: Only one todo may be in_progress at a time; got 2 ("fix it", "test it"). Mark the others pending or completed."`,
    );
  });

  it('an unknown tool and a permission refusal', async () => {
    expect(await observe('Deploy', { target: 'prod' })).toMatchInlineSnapshot(
      `"Error [INVALID_PARAM]: Unknown tool "Deploy". Available tools: LS, Glob, Grep, Read, Write, Edit, MultiEdit, Bash, TaskOutput, TaskStop, TodoWrite, Recall, ExitPlanMode, WebFetch."`,
    );
    expect(
      await observe('Write', { path: 'x.txt', content: 'x' }, { env: { MCA_PERMISSION_MODE: 'default' } }),
    ).toMatchInlineSnapshot(
      `"Error [PERMISSION_DENIED]: Permission to run Write (new file)(x.txt) was denied. Reason: Write (new file)(x.txt) needs permission and no one can approve it in this mode; the user can allow it with a permission rule (settings file or --allowedTools) or rerun with --permission-mode acceptEdits (or bypassPermissions). Do not retry the same call; change the approach or ask the user how to proceed."`,
    );
  });

  it('a reply cut at the output limit, a narrated next step, and broken JSON', async () => {
    const cut = await createHarness([
      { text: 'Thought: write it\nAction: Write[{"path": "big.txt", "content": "aaaa', stopReason: 'max_tokens' },
      reply('Thought: I will now read the config…'),
      reply('Action: Read[{"path": ]'),
      finish('ok'),
    ]);
    await cut.turn('go');
    const [, afterCut, afterNudge, afterBad] = cut.provider.requests;
    expect(lastObservation(afterCut, cut.projectRoot)).toMatchInlineSnapshot(
      `"Error [INVALID_PARAM]: Your reply was cut off at the output limit (32000 tokens) before it was complete, so nothing in it was run. Keep each reply shorter: write a large file in parts (Write the first part, then add the rest with Edit, or split it into several files), change existing files with Edit instead of rewriting them, and keep a final answer brief."`,
    );
    expect(lastObservation(afterNudge, cut.projectRoot)).toMatchInlineSnapshot(
      `"Error [INVALID_PARAM]: Your reply had a Thought but no Action, so nothing ran. If you are done, reply with "Action: Finish[<final answer>]"; otherwise write the Action for your next step, e.g. "Action: Read[{"path": "src/a.ts"}]"."`,
    );
    expect(lastObservation(afterBad, cut.projectRoot)).toMatchInlineSnapshot(
      `"Error [INVALID_PARAM]: Invalid input for Read: "path" must be string, got null."`,
    );
  });
});

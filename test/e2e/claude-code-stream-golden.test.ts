/**
 * mca's stream-json session against Claude Code's own (golden sequences and shapes captured from its binary with
 * test/helpers/capture-claude-code.ts): the same scenario (a Bash call the host allows, a 529 retried, a plain
 * answer) gives the same kinds of lines in the same order, and the lines Zed's adapter and the SDK read
 * (`session_state_changed`, `command_lifecycle`, `api_retry`, `init`) carry Claude Code's keys with its types.
 * On the old tree the sequence had neither state nor lifecycle lines and one init only.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { driveScenario, printPrompt } from '../helpers/capture-claude-code.js';
import { MCA_BIN } from '../helpers/run-mca.js';
import { sequenceOf, shapesOf, type Shape } from '../helpers/stream-shapes.js';

interface Golden {
  sequence: string[];
  shapes: Record<string, Shape>;
}

const golden = (name: string): Golden =>
  JSON.parse(readFileSync(new URL(`../fixtures/claude-code-stream/${name}.json`, import.meta.url), 'utf8')) as Golden;

const MODEL_LINES = new Set(['assistant', 'user', 'stream_event']);
const PROMPTS = ['run a command', 'retry', 'hello'];

/** The golden sequence up to the end of the third prompt (mca's headless front has no /compact). */
function firstThreePrompts(sequence: readonly string[]): string[] {
  let results = 0;
  const end = sequence.findIndex((kind) => kind.startsWith('result/') && ++results === 3);
  const cut = sequence.slice(0, end + 1);
  // What follows a result up to the next message: completed, idle.
  for (const kind of sequence.slice(end + 1)) {
    if (kind.startsWith('command_lifecycle:completed') || kind === 'system/session_state_changed:idle') cut.push(kind);
    else break;
  }
  return cut;
}

function runMcaScenario(env: Record<string, string>, flags: string[] = [], settings?: object) {
  return driveScenario({
    command: process.execPath,
    args: [MCA_BIN],
    env,
    flags,
    prompts: PROMPTS,
    ...(settings ? { settings } : {}),
  });
}

/** Keys and types of `kind` in mca's lines equal Claude Code's, except the keys `omitted` lists (docs/headless.md). */
function expectShape(mine: Record<string, Shape>, theirs: Record<string, Shape>, kind: string, omitted: string[] = []) {
  const expected = Object.fromEntries(Object.entries(theirs[kind] ?? {}).filter(([key]) => !omitted.includes(key)));
  expect(mine[kind], kind).toEqual(expected);
}

describe("stream-json lines as Claude Code's", () => {
  it('with CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: running, requires_action around can_use_tool, idle after each result', async () => {
    const run = await runMcaScenario({ CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1' });
    expect(run.code, run.stderr).toBe(0);
    const reference = golden('state');
    expect(sequenceOf(run.lines, (kind) => !MODEL_LINES.has(kind))).toEqual(firstThreePrompts(reference.sequence));
    const shapes = shapesOf(run.lines);
    expectShape(shapes, reference.shapes, 'system/session_state_changed');
    expectShape(shapes, reference.shapes, 'command_lifecycle');
    expectShape(shapes, reference.shapes, 'system/api_retry');
    // init: every key mca sends is Claude Code's, with its type.
    const init = shapes['system/init'] ?? {};
    for (const [key, types] of Object.entries(init)) expect(reference.shapes['system/init']?.[key], key).toEqual(types);
  }, 60_000);

  it('without it: the same lines minus session_state_changed (as Claude Code)', async () => {
    const run = await runMcaScenario({});
    expect(run.code, run.stderr).toBe(0);
    expect(sequenceOf(run.lines, (kind) => !MODEL_LINES.has(kind))).toEqual(
      firstThreePrompts(golden('nostate').sequence),
    );
  }, 60_000);

  it('with --include-hook-events: hook_started and hook_response around a PreToolUse hook', async () => {
    const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } };
    const run = await runMcaScenario(
      { CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1' },
      ['--include-hook-events'],
      settings,
    );
    expect(run.code, run.stderr).toBe(0);
    const reference = golden('hooks');
    expect(sequenceOf(run.lines, (kind) => !MODEL_LINES.has(kind))).toEqual(firstThreePrompts(reference.sequence));
    const shapes = shapesOf(run.lines);
    expectShape(shapes, reference.shapes, 'system/hook_started');
    expectShape(shapes, reference.shapes, 'system/hook_response');
    expect(run.lines.find((line) => line.subtype === 'hook_response')).toMatchObject({
      hook_name: 'PreToolUse:Bash',
      hook_event: 'PreToolUse',
      exit_code: 0,
      outcome: 'success',
    });
  }, 60_000);

  it('-p "prompt" stream-json with CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: running, init, result, idle', async () => {
    const raw = await printPrompt(process.execPath, [MCA_BIN], { CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1' });
    const lines = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(sequenceOf(lines, (kind) => !MODEL_LINES.has(kind))).toEqual(golden('print-prompt').sequence);
  }, 60_000);
});

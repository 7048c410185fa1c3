import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, type AppProps } from '../../src/ui/app.js';
import {
  aborted,
  answerScript,
  compactionScript,
  deferred,
  envelope,
  FakeController,
  FakeSessions,
  turnEnd,
  turnStart,
  type Script,
} from './fake-controller.js';
import { KEYS, plain, settle, until } from './ink-helpers.js';

afterEach(() => cleanup());

function start(controller = new FakeController('session-aaaa1111'), props: Partial<AppProps> = {}) {
  const sessions = new FakeSessions(controller);
  const onExit = vi.fn();
  const app = render(<App sessions={sessions} columns={80} onExit={onExit} {...props} />);
  const frame = (): string => plain(app.lastFrame());
  const type = async (text: string): Promise<void> => {
    app.stdin.write(text);
    await settle();
  };
  return { app, sessions, controller, onExit, frame, type };
}

describe('App: turns', () => {
  it('sends a question and renders the streamed answer as Markdown', async () => {
    const ui = start(new FakeController('s1', answerScript('Use **zod** for `config`.')));
    await settle();
    await ui.type('how do I validate?');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Use zod for config.'));
    expect(ui.controller.runs.map((run) => run.input)).toEqual(['how do I validate?']);
    expect(ui.frame()).toContain('› how do I validate?');
    expect(ui.frame()).toContain('ctx 25%');
  });

  it('shows a tool call with its Edit diff', async () => {
    const script: Script = async function* ({ input }) {
      yield turnStart(input);
      yield { type: 'step_start', step: 1, estimatedTokens: 1 };
      const action = { tool: 'Edit', input: { path: 'src/a.ts', old_string: 'a', new_string: 'b' } };
      yield { type: 'assistant_step', step: 1, thought: 'rename it', action, raw: '' };
      yield { type: 'tool_start', step: 1, id: 'toolu_1', tool: 'Edit', input: action.input };
      const diff = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n keep\n-const old = 1;\n+const fresh = 2;';
      const result = envelope({ path: 'src/a.ts', applied: true, replacements: 1, diff });
      yield { type: 'tool_end', step: 1, id: 'toolu_1', tool: 'Edit', input: action.input, result, compressed: '{}' };
      yield turnEnd('finish', 'Renamed.');
    };
    const ui = start(new FakeController('s1', script));
    await settle();
    await ui.type('rename');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Renamed.'));
    const frame = ui.frame();
    expect(frame).toContain('✻ rename it');
    expect(frame).toContain('● Edit(src/a.ts)');
    expect(frame).toContain('⎿  1 replacement');
    expect(frame).toContain('−const old = 1;');
    expect(frame).toContain('+const fresh = 2;');
    expect(frame).not.toContain('+++ b/src/a.ts');
  });

  it('Ctrl-C interrupts a running turn: the signal aborts and "Interrupted" is shown', async () => {
    const script: Script = async function* ({ input, signal }) {
      yield turnStart(input);
      yield { type: 'step_start', step: 1, estimatedTokens: 1 };
      yield { type: 'text_delta', step: 1, text: 'Thought: thinking hard' };
      await aborted(signal);
      yield turnEnd('interrupted', 'Interrupted by user.');
    };
    const ui = start(new FakeController('s1', script));
    await settle();
    await ui.type('long task');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Thinking…'));
    // The live label shows complete words only: "hard" may still be growing.
    expect(ui.frame()).toContain('✻ thinking');
    expect(ui.frame()).not.toContain('hard');
    await ui.type(KEYS.ctrlC);
    await until(() => expect(ui.frame()).toContain('Interrupted'));
    expect(ui.frame()).toContain('✻ Thought: thinking hard'.replace('Thought: ', ''));
    expect(ui.controller.runs[0]?.signal.aborted).toBe(true);
    expect(ui.onExit).not.toHaveBeenCalled();
    expect(ui.frame()).not.toContain('Thinking…');
  });
});

describe('App: permission prompt', () => {
  function askingScript(): Script {
    return async function* ({ input, approve }) {
      yield turnStart(input);
      const decision = await approve({
        tool: 'Bash',
        title: 'Bash(rm -rf build)',
        detail: 'rm -rf build',
        input: { command: 'rm -rf build' },
        remember: { label: '`rm` commands', rule: 'Bash(rm:*)' },
      });
      yield turnEnd('answer', decision.approved ? 'ran it' : 'did not run');
    };
  }

  /** The app with the asking script, typed a prompt, waiting at the permission question. */
  async function asked(props: Partial<AppProps> = {}) {
    const ui = start(new FakeController('s1', askingScript()), props);
    await settle();
    await ui.type('clean');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Allow Bash'));
    return ui;
  }

  it('answers 1 = yes', async () => {
    const ui = start(new FakeController('s1', askingScript()));
    await settle();
    await ui.type('clean');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Allow Bash(rm -rf build)?'));
    expect(ui.frame()).toContain("2. Yes, and don't ask again for `rm` commands this session");
    expect(ui.frame()).toContain('3. No, and tell mca what to do differently (esc)');
    expect(ui.frame()).toContain('4. Always allow Bash(rm:*) here (.claude/settings.local.json; then y)');
    await ui.type('1');
    await until(() => expect(ui.frame()).toContain('ran it'));
    expect(ui.controller.decisions).toEqual([{ approved: true }]);
  });

  it('answers 2 = yes for the session, via arrows and Enter', async () => {
    const ui = await asked();
    await ui.type(KEYS.down);
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('ran it'));
    expect(ui.controller.decisions).toEqual([{ approved: true, remember: true }]);
  });

  it('answers 3 = no with a reason the model gets', async () => {
    const ui = await asked();
    await ui.type('3');
    await until(() => expect(ui.frame()).toContain('Tell mca what to do differently'));
    await ui.type('use make clean');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('did not run'));
    expect(ui.controller.decisions).toEqual([{ approved: false, reason: 'use make clean' }]);
  });

  it('answers 4 then y = always: allowed, remembered, and the rule handed to saveRule with a notice', async () => {
    const saved: string[] = [];
    const saveRule = (rule: string) => {
      saved.push(rule);
      return '/p/.claude/settings.local.json';
    };
    const ui = await asked({ saveRule });
    await ui.type('4');
    await until(() => expect(ui.frame()).toContain('y = save and run'));
    expect(ui.controller.decisions).toEqual([]);
    expect(saved).toEqual([]);
    await ui.type('y');
    await until(() => expect(ui.frame()).toContain('ran it'));
    expect(ui.controller.decisions).toEqual([{ approved: true, remember: true, persist: true }]);
    expect(saved).toEqual(['Bash(rm:*)']);
    expect(ui.frame()).toContain('Saved Bash(rm:*) to /p/.claude/settings.local.json');
  });

  it('keys that arrive in one chunk are taken one by one: "93" opens the reason line (9 is no option)', async () => {
    const ui = await asked();
    await ui.type('93');
    await until(() => expect(ui.frame()).toContain('Tell mca what to do differently'));
    expect(ui.controller.decisions).toEqual([]);
  });

  it('"4y" in one chunk never saves a permanent rule: the confirmation waits for its own key', async () => {
    const saved: string[] = [];
    const saveRule = (rule: string) => {
      saved.push(rule);
      return '/p/.claude/settings.local.json';
    };
    const ui = await asked({ saveRule });
    await ui.type('4y');
    await until(() => expect(ui.frame()).toContain('y = save and run'));
    await settle();
    expect(ui.controller.decisions).toEqual([]);
    expect(saved).toEqual([]);
  });

  it('a long paste at the prompt answers nothing', async () => {
    const ui = await asked();
    await ui.type('1111111111111');
    await settle();
    expect(ui.frame()).toContain('Allow Bash');
    expect(ui.controller.decisions).toEqual([]);
  });

  it('Esc denies', async () => {
    const ui = await asked();
    await ui.type(KEYS.escape);
    await until(() => expect(ui.frame()).toContain('did not run'));
    expect(ui.controller.decisions).toEqual([
      { approved: false, reason: 'The user declined this call and stopped the turn.', endTurn: true },
    ]);
  });
});

describe('App: permission prompt numbering never grants by muscle memory', () => {
  function asking(remember?: { label: string; rule: string }): Script {
    return async function* ({ input, approve }) {
      yield turnStart(input);
      const decision = await approve({
        tool: 'Bash',
        title: 'Bash(npm test && rm -rf build)',
        detail: 'npm test && rm -rf build',
        input: { command: 'npm test && rm -rf build' },
        ...(remember ? { remember } : {}),
      });
      yield turnEnd('answer', decision.approved ? 'ran it' : 'did not run');
    };
  }

  it('a compound command keeps 3 = no: 2 is shown but does nothing, and there is no permanent option', async () => {
    const ui = start(new FakeController('s1', asking()));
    await settle();
    await ui.type('go');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Allow Bash(npm test && rm -rf build)?'));
    expect(ui.frame()).toContain("2. Yes, and don't ask again (not offered");
    expect(ui.frame()).toContain('3. No, and tell mca what to do differently (esc)');
    expect(ui.frame()).not.toContain('4.');
    await ui.type('2');
    await ui.type('4');
    await settle();
    expect(ui.controller.decisions).toEqual([]);
    // Arrows skip the disabled option: down from 1 lands on 3 (no).
    await ui.type(KEYS.down);
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Tell mca what to do differently'));
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('did not run'));
    expect(ui.controller.decisions).toEqual([
      { approved: false, reason: 'The user declined this call and stopped the turn.', endTurn: true },
    ]);
  });

  it('4 only asks: any key but y goes back, and Esc at the confirmation declines without saving', async () => {
    const saved: string[] = [];
    const saveRule = (rule: string) => {
      saved.push(rule);
      return '/p/.claude/settings.local.json';
    };
    const ui = start(new FakeController('s1', asking({ label: '`npm test` commands', rule: 'Bash(npm test:*)' })), {
      saveRule,
    });
    await settle();
    await ui.type('go');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Allow Bash'));
    await ui.type('4');
    await until(() => expect(ui.frame()).toContain('y = save and run'));
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('1. Yes'));
    await ui.type('4');
    await until(() => expect(ui.frame()).toContain('y = save and run'));
    await ui.type(KEYS.escape);
    await until(() => expect(ui.frame()).toContain('did not run'));
    expect(saved).toEqual([]);
    expect(ui.controller.decisions).toEqual([
      { approved: false, reason: 'The user declined this call and stopped the turn.', endTurn: true },
    ]);
  });
});

describe('App: slash commands', () => {
  it('/context shows a bar per layer with tokens and percentages', async () => {
    const ui = start();
    await settle();
    await ui.type('/context');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Context · 200,000 token window'));
    const frame = ui.frame();
    expect(frame).toMatch(/L1 system \+ tools\s+█+\s+4,000\s+2%/);
    expect(frame).toMatch(/L3 history\s+█+\s+20,000\s+10%/);
    expect(frame).toMatch(/Free\s+░*\s+172,500\s+86%/);
    expect(frame).toContain('Last real usage: 30,000 tokens (15%)');
    expect(frame).toContain('Profile: claude (200k) · retained rounds set by config');
  });

  it('/compact shows progress with input blocked, then the result', async () => {
    const gate = deferred();
    const controller = new FakeController('s1', answerScript('x'), compactionScript(gate.promise));
    const ui = start(controller);
    await settle();
    await ui.type('/compact keep auth');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Compacting conversation (150,000 tokens, archiving 5 rounds)'));
    expect(ui.frame()).toContain('input is paused');
    await ui.type('typed while blocked');
    expect(ui.frame()).not.toContain('typed while blocked');
    gate.resolve();
    await until(() => expect(ui.frame()).toContain('150,000 → 20,000 tokens · 10 rounds kept · 5 archived'));
    expect(controller.compactions.map((call) => call.focus)).toEqual(['keep auth']);
    expect(ui.frame()).not.toContain('input is paused');
  });

  it('hints the closest command for an unknown one', async () => {
    const ui = start();
    await settle();
    await ui.type('/contxt');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Unknown command /contxt. Did you mean /context?'));
    expect(ui.controller.runs).toEqual([]);
  });

  it('suggests commands while typing / and completes with Tab', async () => {
    const ui = start();
    await settle();
    await ui.type('/mo');
    expect(ui.frame()).toContain('/model [name]');
    expect(ui.frame()).not.toContain('/clear');
    await ui.type(KEYS.tab);
    await ui.type('opus');
    await ui.type(KEYS.enter);
    // `opus` is Claude Code's short name: the session is set to the model it stands for.
    await until(() => expect(ui.frame()).toContain('Model set to claude-opus-5-5.'));
    expect(ui.controller.model).toBe('claude-opus-5-5');
    expect(ui.frame()).toMatch(/claude-opus-5-5 · .* · ctx/);
  });

  it('/clear starts a new session and installs the approver on it', async () => {
    const ui = start();
    await settle();
    await ui.type('/clear');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Started a new session session-'));
    const fresh = ui.sessions.created[0];
    expect(fresh?.approver).toBeTypeOf('function');
  });

  it('/resume picks a session with arrows and Enter', async () => {
    const ui = start();
    ui.sessions.sessionList = [
      { id: 'aaaaaaaa-1', updatedAt: '2026-01-02T10:00:00Z', title: 'fix the parser', messages: 12 },
      { id: 'bbbbbbbb-2', updatedAt: '2026-01-01T10:00:00Z', title: 'add tests', messages: 4 },
    ];
    await settle();
    await ui.type('/resume');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('add tests'));
    await ui.type(KEYS.down);
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Resumed session bbbbbbbb'));
    expect(ui.sessions.resumed).toEqual(['bbbbbbbb-2']);
    expect(ui.frame()).toContain('bbbbbbbb');
  });

  it('/todos lists the todos', async () => {
    const controller = new FakeController('s1');
    controller.todoList = [
      { content: 'write parser', status: 'completed' },
      { content: 'write tests', status: 'in_progress' },
    ];
    const ui = start(controller);
    await settle();
    await ui.type('/todos');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Todos [1/2]'));
    expect(ui.frame()).toContain('▶ write tests');
  });
});

describe('App: input and exit', () => {
  it('Ctrl-C twice on an empty prompt exits; once only warns', async () => {
    const ui = start();
    await settle();
    await ui.type(KEYS.ctrlC);
    expect(ui.frame()).toContain('Press Ctrl-C again to exit');
    expect(ui.onExit).not.toHaveBeenCalled();
    await ui.type(KEYS.ctrlC);
    expect(ui.onExit).toHaveBeenCalledTimes(1);
  });

  it('Ctrl-C with text clears it instead of exiting; Ctrl-D on an empty prompt exits', async () => {
    const ui = start();
    await settle();
    await ui.type('draft text');
    await ui.type(KEYS.ctrlC);
    expect(ui.frame()).not.toContain('draft text');
    expect(ui.onExit).not.toHaveBeenCalled();
    await ui.type(KEYS.ctrlD);
    expect(ui.onExit).toHaveBeenCalledTimes(1);
  });

  it('inserts newlines with Alt-Enter, Ctrl-J and backslash-Enter, and sends the whole text', async () => {
    const ui = start();
    await settle();
    await ui.type('one');
    await ui.type(KEYS.altEnter);
    await ui.type('two');
    await ui.type(KEYS.ctrlJ);
    await ui.type('three\\');
    await ui.type(KEYS.enter);
    await ui.type('four');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.controller.runs).toHaveLength(1));
    expect(ui.controller.runs[0]?.input).toBe('one\ntwo\nthree\nfour');
  });

  it('recalls history with ↑ and reports it for persistence', async () => {
    const onHistory = vi.fn();
    const ui = start(new FakeController('s1'), { history: ['older prompt'], onHistory });
    await settle();
    await ui.type('first');
    await ui.type(KEYS.enter);
    await until(() => expect(onHistory).toHaveBeenCalledWith(['older prompt', 'first']));
    await until(() => expect(ui.frame()).toContain('⏺ ok'));
    await ui.type(KEYS.up);
    expect(ui.frame()).toMatch(/> first/);
    await ui.type(KEYS.up);
    expect(ui.frame()).toMatch(/> older prompt/);
  });

  it('collapses a large paste but submits the real text', async () => {
    const ui = start();
    await settle();
    const pasted = Array.from({ length: 20 }, (_, index) => `row ${index}`).join('\r');
    await ui.type(pasted);
    expect(ui.frame()).toContain('[Pasted 20 lines]');
    expect(ui.frame()).not.toContain('row 19');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.controller.runs).toHaveLength(1));
    expect(ui.controller.runs[0]?.input).toBe(pasted.replace(/\r/g, '\n'));
  });

  it('completes @paths with Tab, quoting paths with spaces, and lists suggestions', async () => {
    const completePath = vi.fn(async (prefix: string) =>
      ['docs/', 'docs/my notes.md', 'docs/main.md'].filter((path) => path.startsWith(prefix)),
    );
    const ui = start(new FakeController('s1'), { completePath });
    await settle();
    await ui.type('read @docs/m');
    await until(() => expect(ui.frame()).toContain('@docs/my notes.md'));
    expect(ui.frame()).toContain('@docs/main.md');
    await ui.type('y');
    await ui.type(KEYS.tab);
    await until(() => expect(ui.frame()).toContain('> read @"docs/my notes.md"'));
    await ui.type('now');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.controller.runs).toHaveLength(1));
    expect(ui.controller.runs[0]?.input).toBe('read @"docs/my notes.md" now');
  });
});

describe('App: narrow terminals', () => {
  it('keeps every line within 60 columns', async () => {
    const long = `${'word '.repeat(40)}\n\n- ${'item '.repeat(30)}`;
    const script: Script = async function* ({ input }) {
      yield turnStart(input);
      const action = { tool: 'Bash', input: { command: `npm run ${'very-long-script-name-'.repeat(6)}` } };
      yield { type: 'assistant_step', step: 1, thought: 'run the build', action, raw: '' };
      const result = envelope({ command: 'x', exit_code: 1, stdout: 'y'.repeat(150), stderr: `E ${'z'.repeat(150)}` });
      yield { type: 'tool_end', step: 1, id: 'toolu_1', tool: 'Bash', input: action.input, result, compressed: '{}' };
      yield turnEnd('answer', long);
    };
    const ui = start(new FakeController('s1', script, compactionScript(), `/very/long/project/${'dir/'.repeat(20)}`), {
      columns: 60,
    });
    await settle();
    await ui.type('build it please '.repeat(6));
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('item'));
    await ui.type('/context');
    await ui.type(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Last real usage'));
    const lines = ui.frame().split('\n');
    if (process.env.MCA_SHOW_FRAMES) console.log(ui.frame());
    const widest = Math.max(...lines.map((line) => [...line].length));
    expect(widest).toBeLessThanOrEqual(60);
    expect(ui.frame()).toContain('exit 1 · 1 stdout line · 1 stderr line');
  });
});

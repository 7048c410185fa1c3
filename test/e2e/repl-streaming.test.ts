/**
 * The REPL as a Claude Code user drives it, through the built binary in tmux against the loopback fake API:
 * the answer streams (its first half is on screen while the fake still holds the rest), a resize redraws without
 * duplicated frame lines, and a message typed while the agent works is queued and sent when the turn ends.
 */
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { replHarness } from './support/repl-harness.js';
import { saveScreen, tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

function gate(): { release: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const release = new Promise<void>((resolve) => (open = resolve));
  return { release, open };
}

const PARAGRAPHS = Array.from(
  { length: 12 },
  (_, index) => `Paragraph ${index + 1} explains step ${index + 1} with \`code${index + 1}\` in it.`,
);
const ANSWER = `## Plan\n\n${PARAGRAPHS.join('\n\n')}`;

/** The whole answer is in the scrollback, each paragraph exactly once (nothing drawn twice while streaming). */
function expectEachParagraphOnce(all: string): void {
  for (const paragraph of PARAGRAPHS.map((line) => line.replace(/`/g, ''))) {
    expect(all.split(paragraph).length - 1, paragraph).toBe(1);
  }
}

describe.runIf(runHere)('mca REPL in tmux: streaming, resize, type-ahead', () => {
  it('shows the first half of a long answer while the rest is still arriving, then the whole as Markdown', async () => {
    const hold = gate();
    const text = `Thought: I can answer directly.\nAction: Finish[${ANSWER}]`;
    const half = text.indexOf('Paragraph 7');
    const { term } = await harness.start([{ text, chunks: 60, hold: { afterChars: half, release: hold.release } }]);
    term.type('explain the plan');
    term.keys('Enter');
    const early = await term.waitFor('Paragraph 5 explains', { what: 'the first paragraphs while streaming' });
    expect(early).toContain('✻ I can answer directly.');
    expect(early).toMatch(/^⏺ Plan$/m);
    expect(early).toContain('Paragraph 1 explains step 1 with code1 in it.');
    expect(early).not.toContain('Paragraph 8');
    expect(early).not.toContain('Finish[');
    expect(early).toMatch(/Thinking…/);
    await saveScreen('streaming', early);
    hold.open();
    const done = await term.waitFor(/Paragraph 12 explains step 12 with code12 in it\.\n/, {
      what: 'the whole answer',
    });
    expect(done).not.toContain('`');
    expect(done).not.toContain('##');
    await term.waitFor((screen) => !screen.includes('Thinking…') && screen.includes('Ask anything'), {
      what: 'the idle input box',
    });
    expectEachParagraphOnce(term.all());
  }, 120_000);

  it('native tool use: the plain answer streams the same way, its first half on screen before the rest', async () => {
    const hold = gate();
    const half = ANSWER.indexOf('Paragraph 7');
    const { term } = await harness.start(
      [{ text: ANSWER, chunks: 60, hold: { afterChars: half, release: hold.release } }],
      {
        env: { MCA_TOOL_PROTOCOL: 'native' },
      },
    );
    term.type('explain the plan');
    term.keys('Enter');
    const early = await term.waitFor('Paragraph 5 explains', { what: 'the first paragraphs while streaming' });
    expect(early).toMatch(/^⏺ Plan$/m);
    expect(early).toContain('Paragraph 1 explains step 1 with code1 in it.');
    expect(early).not.toContain('Paragraph 8');
    hold.open();
    await term.waitFor(/Paragraph 12 explains step 12 with code12 in it\.\n/, { what: 'the whole answer' });
    await term.waitFor((screen) => !screen.includes('Thinking…') && screen.includes('Ask anything'), {
      what: 'the idle input box',
    });
    expectEachParagraphOnce(term.all());
  }, 120_000);

  it('renders Markdown in the terminal: headings, inline code, nested lists, fenced code in syntax colours', async () => {
    const markdown = [
      '## Result',
      '',
      '- run `npm test`',
      '  - then `npm run lint`',
      '',
      '```js',
      'const answer = 42; // the answer',
      '```',
    ].join('\n');
    const { term } = await harness.start([{ text: `Thought: ok\nAction: Finish[${markdown}]` }]);
    term.type('how do I check?');
    term.keys('Enter');
    const screen = await term.waitFor('const answer = 42;', { what: 'the rendered answer' });
    expect(screen).toMatch(/^⏺ Result$/m);
    expect(screen).toMatch(/^ {2}• run npm test$/m);
    expect(screen).toMatch(/^ {4}• then npm run lint$/m);
    expect(screen).not.toContain('```');
    const coloured = term
      .screenWithEscapes()
      .split('\n')
      .find((line) => line.includes('42'));
    // cli-highlight colours the keyword, the number and the comment: SGR sequences inside the code line.
    expect((coloured ?? '').split('\x1b[').length - 1).toBeGreaterThanOrEqual(4);
  }, 120_000);

  it('redraws cleanly after the window is resized: no frame line twice, the transcript rewrapped', async () => {
    const { term } = await harness.start([
      { text: `Thought: ok\nAction: Finish[${PARAGRAPHS.slice(0, 4).join('\n\n')}]` },
    ]);
    term.type('short answer please');
    term.keys('Enter');
    await term.waitFor('Paragraph 4 explains');
    await term.waitFor((screen) => !screen.includes('Thinking…'), { what: 'the turn to end' });
    for (const [columns, rows] of [
      [50, 30],
      [100, 30],
      [64, 36],
    ] as const) {
      term.resize(columns, rows);
      // The redraw settles shortly after the last resize event; a stale frame that never goes away times out here.
      const border = `╭${'─'.repeat(columns - 2)}╮`;
      const count = (text: string, needle: string): number => text.split(needle).length - 1;
      const clean = (text: string): boolean =>
        text.split('\n').includes(border) &&
        /ctx \d+%/.test(text) &&
        count(text, 'Ask anything') === 1 &&
        count(text, 'ctx ') === 1 &&
        count(text, 'short answer please') === 1 &&
        count(text, 'Paragraph 1 explains') === 1 &&
        text.split('\n').filter((line) => line.startsWith('╭')).length === 1 &&
        text.split('\n').filter((line) => line.startsWith('╰')).length === 1;
      const settled = await term.waitFor(clean, { what: `one clean frame at ${columns} columns` });
      expect(settled.split('\n').every((line) => line.length <= columns)).toBe(true);
      // The scrollback holds no copy drawn at an older width either.
      expect(term.all().split('short answer please').length - 1).toBe(1);
    }
    // Ctrl-L clears the screen and the scrollback; /clear also starts a new session on a clean screen.
    term.keys('C-l');
    await term.waitFor((screen) => !screen.includes('Paragraph 1') && screen.includes('Ask anything'), {
      what: 'the screen cleared by Ctrl-L',
    });
    expect(term.all()).not.toContain('short answer please');
    term.type('/clear');
    term.keys('Enter');
    const cleared = await term.waitFor(/Started a new session [0-9a-f]{8}\./, { what: '/clear' });
    expect(cleared.split('\n').filter((line) => line.trim() !== '')[0]).toMatch(/^Started a new session/);
  }, 120_000);

  it('queues a message typed while the agent works, shows it, lets Esc drop one, and sends the rest after', async () => {
    const hold = gate();
    const first = 'Thought: slow\nAction: Finish[First answer done.]';
    const { term, script } = await harness.start([
      { text: first, chunks: 8, hold: { afterChars: 10, release: hold.release } },
      { text: 'Thought: ok\nAction: Finish[Second answer done.]' },
    ]);
    term.type('first question');
    term.keys('Enter');
    await term.waitFor('Thinking…');
    term.type('second question');
    term.keys('Enter');
    await term.waitFor('⏵ queued: second question');
    term.type('third, dropped');
    term.keys('Enter');
    await term.waitFor('⏵ queued: third, dropped');
    term.keys('Escape');
    const afterEsc = await term.waitFor((screen) => !screen.includes('third, dropped'), { what: 'Esc to drop' });
    expect(afterEsc).toContain('⏵ queued: second question');
    expect(afterEsc).toContain('Thinking…');
    hold.open();
    await term.waitFor('Second answer done.', { what: 'the queued message answered' });
    expect(script.agentRequests).toHaveLength(2);
    expect(userText(script.agentRequests[1] ?? {})).toContain('second question');
    expect(userText(script.agentRequests[1] ?? {})).not.toContain('third, dropped');
    expect(term.screen()).not.toContain('queued:');
  }, 120_000);
});

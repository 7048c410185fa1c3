/**
 * Issue 42, the REPL while a long answer streams, from the terminal's side: every byte the built REPL writes into
 * its tmux pane is recorded (`pipe-pane`) from Enter until the answer is whole. The REPL never clears the whole
 * screen while it streams (only a resize or Ctrl+L may), and it writes at most MAX_BYTES_PER_KB bytes per kB of
 * answer text (finished blocks are written once; only the block still growing is redrawn).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';
import { CLEAR_SEQUENCES, countClears, longAnswer, MAX_BYTES_PER_KB } from './support/terminal-output.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

async function streamed(
  shape: 'paragraphs' | 'code',
  after?: (term: Awaited<ReturnType<typeof harness.start>>['term']) => Promise<void>,
): Promise<{ output: string; answer: string }> {
  const answer = longAnswer(40, shape);
  const { term, repl } = await harness.start([{ text: answer, chunks: 400 }], {
    env: { MCA_TOOL_PROTOCOL: 'native' },
    columns: 100,
    rows: 40,
  });
  const file = join(repl.root, 'terminal.out');
  term.type('write the long answer');
  term.recordOutput(file);
  term.keys('Enter');
  await term.waitFor(
    (screen) => screen.includes('END-OF-ANSWER') && !screen.includes('Thinking…') && screen.includes('Ask anything'),
    { what: 'the whole answer and the idle input box', timeoutMs: 120_000 },
  );
  await after?.(term);
  return { output: readFileSync(file, 'latin1'), answer };
}

describe.runIf(runHere)('mca REPL in tmux: terminal bytes while a long answer streams', () => {
  for (const shape of ['paragraphs', 'code'] as const) {
    it(`${shape}: no full-screen clear, and a bounded number of bytes per kB of text`, async () => {
      const { output, answer } = await streamed(shape);
      for (const sequence of CLEAR_SEQUENCES) expect(output.includes(sequence), JSON.stringify(sequence)).toBe(false);
      expect(countClears(output)).toBe(0);
      const perKb = output.length / (Buffer.byteLength(answer) / 1024);
      expect(perKb).toBeLessThanOrEqual(MAX_BYTES_PER_KB);
      // The recording did see the stream (not an empty file that passes every bound).
      expect(output).toContain('END-OF-ANSWER');
    }, 180_000);
  }

  it('the recording does see a clear: Ctrl+L after the answer clears the screen', async () => {
    const { output } = await streamed('paragraphs', async (term) => {
      term.keys('C-l');
      await term.waitFor((screen) => !screen.includes('END-OF-ANSWER'), { what: 'the cleared screen' });
    });
    expect(countClears(output)).toBeGreaterThan(0);
  }, 180_000);
});

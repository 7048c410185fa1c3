/**
 * `/output-style` and `/thinking` in the REPL through the built binary (issue 40), seen from the model's side: the
 * next request carries the chosen style's section and the thinking budget, and no longer does once they are off.
 */
import { describe, expect, it } from 'vitest';
import { systemText } from '../helpers/fake-anthropic-server.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: /output-style and /thinking', () => {
  it('a style and thinking chosen in the session reach the next request; turned off, they leave it', async () => {
    const { script, term } = await harness.start([{ text: 'First answer.' }, { text: 'Second answer.' }], {
      env: { MCA_TOOL_PROTOCOL: 'native' },
    });
    const command = async (line: string, shown: string | RegExp): Promise<void> => {
      term.type(line);
      term.keys('Enter');
      await term.waitFor(shown, { what: `the answer to ${line}` });
    };
    await command('/output-style', /Explanatory — [\s\S]*Learning — /);
    await command('/output-style learning', 'Output style set to Learning');
    await command('/thinking', 'Extended thinking on (budget 16000 tokens)');
    await command('hello', 'First answer.');
    const first = script.agentRequests[0];
    expect(systemText(first ?? { messages: [] })).toContain('# Output style: Learning\n');
    expect(first?.thinking).toEqual({ type: 'enabled', budget_tokens: expect.any(Number) as number });

    await command('/thinking off', 'Extended thinking off');
    await command('/output-style Default', 'Output style set to Default');
    await command('again', 'Second answer.');
    const second = script.agentRequests[1];
    expect(systemText(second ?? { messages: [] })).not.toContain('# Output style');
    expect(second?.thinking).toBeUndefined();
  }, 90_000);
});

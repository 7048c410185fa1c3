/**
 * `/plugin` in the REPL through the built binary (issue 40): it lists the plugins the session loaded, answers
 * `mca plugin`'s verbs, and a plugin's command reaches the model expanded.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { replHarness } from './support/repl-harness.js';
import { REPO, tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();
const FIXTURE = join(REPO, 'test', 'fixtures', 'plugins', 'demo-plugin');

describe.runIf(runHere)('mca REPL in tmux: /plugin', () => {
  it("lists the session's plugins, answers the verbs, and runs a plugin's command", async () => {
    const { script, term } = await harness.start([{ text: 'Hello, Ada.' }], { args: ['--plugin-dir', FIXTURE] });
    const command = async (line: string, shown: string | RegExp): Promise<void> => {
      term.type(line);
      term.keys('Enter');
      await term.waitFor(shown, { what: `the answer to ${line}` });
    };
    await command('/plugin', /Loaded in this session:\s+demo@inline/);
    await command('/plugin marketplace list', 'No marketplaces');
    await command('/plugin install nope@nowhere', 'no marketplace "nowhere"');
    await command('/demo:greet Ada', 'Hello, Ada.');
    expect(userText(script.agentRequests[0] ?? { messages: [] })).toContain('Say hello to Ada from the demo plugin.');
  }, 90_000);
});

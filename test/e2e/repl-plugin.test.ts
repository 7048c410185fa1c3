/**
 * `/plugin` in the REPL through the built binary (issue 40): it lists the plugins the session loaded, answers
 * `mca plugin`'s verbs, and a plugin's command reaches the model expanded. A plugin only the project's settings
 * enable is listed in the trust question, with its hook and its MCP server, before anything of it runs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, REPO, tmuxTestsRun } from './support/repl-launch.js';

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

  it("the trust question lists a project's plugin with its hook and server; nothing of it ran", async () => {
    const { url } = await harness.fake([{ text: 'hi' }]);
    const installed = {
      version: 2,
      plugins: { 'demo@team-tools': [{ scope: 'user', installPath: FIXTURE, version: '1.0.0' }] },
    };
    const repl = await launchRepl(url, {
      files: { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'demo@team-tools': true } }) },
      homeFiles: { 'plugins/installed_plugins.json': JSON.stringify(installed) },
      rows: 50,
      columns: 120,
    });
    harness.defer(() => repl.cleanup());
    const shown = await repl.term.waitFor('2. No, exit', { what: 'the trust menu' });
    const question = shown.replace(/\n {4,}/g, ' ');
    expect(question).toContain('"plugin:demo:notes" runs node');
    expect(question).toContain('scripts/guard.sh');
    expect(question).toContain('plugin demo@team-tools');
    expect(existsSync(join(repl.project, 'plugin-hook-ran'))).toBe(false);
  }, 90_000);
});

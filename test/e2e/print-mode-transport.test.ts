/**
 * `mca -p` through the built binary talks to the model over node:http: it never loads Node's fetch stack (undici,
 * ~14 ms and 12 MB at start, ~80 ms at exit), keeps one connection alive across the steps of a run, and exits on
 * its own although that connection is still open (the fakes keep idle connections for ten minutes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const PRELOAD = fileURLToPath(new URL('../helpers/module-list-preload.mjs', import.meta.url));

let server: FakeAnthropic | FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const action = (tool: string, input: unknown) => ({ text: `Thought: go\nAction: ${tool}[${JSON.stringify(input)}]` });
const finish = (answer: string) => ({ text: `Thought: done\nAction: Finish[${answer}]` });

/** Runs `mca -p` with the preload and returns the run and the internal modules it loaded. */
async function runListingModules(env: Record<string, string>) {
  const { root, home } = tempProject('mca-e2e-transport-', { 'notes.txt': 'the answer is 42\n' });
  const list = join(home, '..', 'modules.txt');
  const run = await runMca(['-p', 'what do the notes say?', '--permission-mode', 'bypassPermissions'], {
    cwd: root,
    env: {
      ...env,
      MCA_HOME: home,
      MCA_TOOL_PROTOCOL: 'text',
      NODE_OPTIONS: `--import ${PRELOAD}`,
      MCA_TEST_MODULE_LIST: list,
    },
  });
  return { run, modules: readFileSync(list, 'utf8').split('\n') };
}

const PROVIDERS = {
  Anthropic: async () => {
    const fake = await startFakeAnthropic([action('Read', { path: 'notes.txt' }), finish('The notes say 42.')]);
    return { fake, env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-transport-0123456789', ANTHROPIC_BASE_URL: fake.url } };
  },
  'OpenAI-compatible': async () => {
    const fake = await startFakeOpenAI([action('Read', { path: 'notes.txt' }), finish('The notes say 42.')]);
    return { fake, env: { MCA_PROVIDER: 'openai', OPENAI_API_KEY: 'ollama', OPENAI_BASE_URL: fake.url } };
  },
};

describe('mca -p on the node:http transport', () => {
  it.each(Object.keys(PROVIDERS) as Array<keyof typeof PROVIDERS>)(
    '%s: answers over one kept-alive connection without loading undici, and exits by itself',
    async (provider) => {
      const { fake, env } = await PROVIDERS[provider]();
      server = fake;
      const { run, modules } = await runListingModules(env);
      expect(run).toMatchObject({ code: 0, signal: null, stdout: 'The notes say 42.\n', stderr: '' });
      expect(fake.requests).toHaveLength(2);
      expect(fake.connections()).toBe(1);
      // The list is real: the transport's own module is in it, the fetch stack is not.
      expect(modules).toContain('NativeModule http');
      expect(modules.filter((name) => /undici/i.test(name))).toEqual([]);
    },
  );
});

/**
 * `mca -p` end to end on the OpenAI-compatible provider: the built binary, its node:http transport, a loopback fake
 * chat completions API, real tools in a temp project.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TOOL_PROTOCOLS } from '../../src/config/config.js';
import { openaiUserText, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-proj-e2e-openai-secret-0123456789abcdef';
let server: FakeOpenAI | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function project(files: Record<string, string> = {}) {
  return tempProject('mca-e2e-openai-', files);
}

function sessionText(home: string): string {
  const projects = join(home, 'projects');
  return readdirSync(projects)
    .flatMap((slug) =>
      readdirSync(join(projects, slug))
        .filter((name) => name.endsWith('.jsonl'))
        .map((name) => join(projects, slug, name)),
    )
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

const action = (tool: string, input: unknown) => ({ text: `Thought: go\nAction: ${tool}[${JSON.stringify(input)}]` });

describe('mca -p with MCA_PROVIDER=openai', () => {
  it.each(TOOL_PROTOCOLS)(
    'runs Read → Bash → Finish against an OpenAI-compatible API (%s tool protocol)',
    async (wire) => {
      const { root, home } = project({ 'notes.txt': 'the answer is 42\n' });
      server = await startFakeOpenAI(
        [
          action('Read', { path: 'notes.txt' }),
          action('Bash', { command: 'echo "key=${OPENAI_API_KEY:-none}"' }),
          {
            text: 'Thought: done\nAction: Finish[The notes say 42.]',
            usage: { prompt_tokens: 900, cached_tokens: 600 },
          },
        ],
        { apiKey: KEY },
      );
      const run = await runMca(
        ['-p', 'what do the notes say?', '--output-format', 'json', '--permission-mode', 'bypassPermissions'],
        {
          cwd: root,
          env: {
            MCA_PROVIDER: 'openai',
            OPENAI_BASE_URL: server.url,
            OPENAI_API_KEY: KEY,
            MCA_HOME: home,
            MCA_TOOL_PROTOCOL: wire,
            MCA_MODEL: 'gpt-e2e',
          },
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const output = JSON.parse(run.stdout) as { result: string; is_error: boolean; usage: Record<string, number> };
      expect(output).toMatchObject({ result: 'The notes say 42.', is_error: false });
      // Turn totals: two steps at 100 uncached prompt tokens, the last at 900 of which 600 were cached.
      expect(output.usage).toMatchObject({
        input_tokens: 500,
        cache_read_input_tokens: 600,
        cache_creation_input_tokens: 0,
      });

      expect(server.requests).toHaveLength(3);
      expect(server.requests.map((request) => request.body.model)).toEqual(['gpt-e2e', 'gpt-e2e', 'gpt-e2e']);
      if (wire === 'text') expect(server.requests[0]?.body.stop).toEqual(['\nObservation:']);
      else expect(server.requests[0]?.body.stop).toBeUndefined();
      expect(Array.isArray(server.requests[0]?.body.tools)).toBe(wire === 'native');
      expect(server.requests[0]?.body.messages?.map((message) => message.role)).toEqual(['system', 'user']);
      expect(openaiUserText(server.requests[1]!.body)).toContain('the answer is 42');
      // The Bash tool never sees the OpenAI key; the session file never stores it.
      expect(openaiUserText(server.requests[2]!.body)).toContain('key=none');
      expect(sessionText(home)).not.toContain(KEY);
    },
  );

  it('prints the plain answer in text mode', async () => {
    const { root, home } = project();
    server = await startFakeOpenAI([{ text: 'Hello from a local model.' }]);
    const run = await runMca(['-p', 'hi'], {
      cwd: root,
      env: { MCA_PROVIDER: 'openai', OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'ollama', MCA_HOME: home },
    });
    expect(run).toMatchObject({ code: 0, stdout: 'Hello from a local model.\n' });
    expect(server.requests[0]?.body.model).toBe('gpt-4.1');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer ollama');
  });

  it('without OPENAI_API_KEY exits 2 with one line naming it, even when ANTHROPIC_API_KEY is set', async () => {
    const { root, home } = project();
    const run = await runMca(['-p', 'hello'], {
      cwd: root,
      env: { MCA_PROVIDER: 'openai', ANTHROPIC_API_KEY: 'sk-ant-present-but-unused', MCA_HOME: home },
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('OPENAI_API_KEY');
  });

  it('a rejected key exits 1 with one line naming OPENAI_API_KEY and without the key', async () => {
    const { root, home } = project();
    server = await startFakeOpenAI([{ text: 'never' }], { apiKey: 'the-right-key-0123456789' });
    const run = await runMca(['-p', 'hello'], {
      cwd: root,
      env: { MCA_PROVIDER: 'openai', OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY, MCA_HOME: home },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('OPENAI_API_KEY was rejected (401)');
    expect(run.stderr).not.toContain(KEY);
  });
});

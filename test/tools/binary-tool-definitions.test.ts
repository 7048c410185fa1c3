/**
 * The built binary (whose tool JSON Schemas the build computed, and whose validator loads on the first call)
 * against the fake Anthropic API: what the requests carry is the golden of tool-definitions.test.ts, recorded from
 * the classic-zod schemas, and a bad call is answered with the same message.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, systemText, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const golden = JSON.parse(readFileSync(new URL('./fixtures/tool-definitions.json', import.meta.url), 'utf8')) as {
  toolSpecs: Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
  prompts: Array<{ name: string; prompt: string }>;
};

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function env(home: string, extra: Record<string, string> = {}) {
  return {
    ANTHROPIC_API_KEY: 'sk-ant-test-defs-0123456789',
    ANTHROPIC_BASE_URL: server?.url ?? '',
    MCA_HOME: home,
    ...extra,
  };
}

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

describe('tool definitions in the requests of the built binary', () => {
  it('native: the tools array carries the golden names, prose and input schemas, byte for byte', async () => {
    const { root, home } = tempProject('mca-defs-');
    server = await startFakeAnthropic([{ text: 'ok' }]);
    const run = await runMca(['-p', 'say ok'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('ok');
    const tools = server.requests[0]!.body.tools as Array<{ name: string; description: string; input_schema: unknown }>;
    // The built-in tools are the golden, byte for byte; the runtime adds the WebSearch gate (Anthropic, native) and
    // the Agent tool (issue 29) after them.
    expect(tools.slice(-2).map((tool) => tool.name)).toEqual(['WebSearch', 'Agent']);
    const builtIn = tools.slice(0, -2);
    expect(builtIn.map((tool) => JSON.stringify([tool.name, tool.description, tool.input_schema]))).toEqual(
      golden.toolSpecs.map((spec) =>
        JSON.stringify([spec.name, spec.description, { type: 'object', ...spec.inputSchema }]),
      ),
    );
  });

  it('text protocol: the system prompt carries every golden tool prompt with its parameter section', async () => {
    const { root, home } = tempProject('mca-defs-');
    server = await startFakeAnthropic([{ text: 'Thought: done\nAction: Finish[ok]' }]);
    const run = await runMca(['-p', 'say ok'], { cwd: root, env: env(home, { MCA_TOOL_PROTOCOL: 'text' }) });
    expect(run.stdout).toContain('ok');
    const system = systemText(server.requests[0]!.body);
    for (const { name, prompt } of golden.prompts) {
      expect(prompt, name).toContain('Parameters (JSON):');
      expect(system, name).toContain(prompt);
    }
  });

  it('a call with bad input gets the validation message in its tool_result, and the next good call runs', async () => {
    const { root, home } = tempProject('mca-defs-', { 'a.js': 'export const a = 1;\n' });
    server = await startFakeAnthropic([
      { text: '', calls: [{ id: 'toolu_bad', name: 'Read', input: { path: 'a.js', limit: 0, extra: true } }] },
      { text: '', calls: [{ id: 'toolu_good', name: 'Read', input: { path: 'a.js' } }] },
      { text: 'read it' },
    ]);
    const run = await runMca(['-p', 'read a'], { cwd: root, env: env(home) });
    expect(run.stdout).toContain('read it');
    const resultOf = (request: number, id: string) =>
      (server!.requests[request]!.body.messages!.at(-1)!.content as Block[]).find((block) => block.tool_use_id === id);
    const bad = resultOf(1, 'toolu_bad');
    expect(bad?.is_error).toBe(true);
    expect(String(bad?.content)).toContain(
      'Invalid input for Read: "limit" is too small (expected number to be >=1); unknown field "extra". Allowed fields: path, start_line, limit.',
    );
    expect(String(resultOf(2, 'toolu_good')?.content)).toContain('1\texport const a = 1;');
  });
});

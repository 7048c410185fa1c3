/**
 * `--json-schema` (the Agent SDK's `outputFormat`): the model is offered Claude Code's StructuredOutput tool with the
 * schema as its input schema; a call that matches ends the turn and the result carries `structured_output` (and the
 * JSON text as `result`); a reply in text is told to call the tool; five misses end with
 * `error_max_structured_output_retries`. Through `-p` json, stream-json and both SDK lines. On the old tree the flag
 * was ignored with a warning: no tool, no `structured_output`.
 */
import { query as query02 } from 'claude-agent-sdk-02';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkEnv, sdkQuery } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { MCA_BIN, runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-structured-0123456789';
const SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'number' } },
  required: ['answer'],
  additionalProperties: false,
};
const good = { text: '', calls: [{ name: 'StructuredOutput', input: { answer: 42 } }] };
const bad = (answer: string) => ({ text: '', calls: [{ name: 'StructuredOutput', input: { answer } }] });
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function print(script: FakeStep[], format: 'json' | 'stream-json') {
  const { root, home } = tempProject('mca-structured-');
  server = await startFakeAnthropic(script);
  const args = ['-p', 'what is the answer?', '--output-format', format, '--json-schema', JSON.stringify(SCHEMA)];
  const run = await runMca(format === 'stream-json' ? [...args, '--verbose'] : args, {
    cwd: root,
    env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: home },
  });
  const lines = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { run, result: lines.at(-1) ?? {}, lines };
}

describe('--json-schema', () => {
  it('-p json: a reply in text is told to call StructuredOutput; the matching call is the result', async () => {
    const { run, result } = await print([{ text: 'It is 42.' }, good], 'json');
    expect(run.code, run.stderr).toBe(0);
    expect(result).toMatchObject({ subtype: 'success', is_error: false, structured_output: { answer: 42 } });
    expect(JSON.parse(String(result.result))).toEqual({ answer: 42 });
    const first = server!.requests[0]!.body;
    const offered = (first.tools as Array<{ name: string; input_schema: unknown }>).find(
      (tool) => tool.name === 'StructuredOutput',
    );
    expect(offered?.input_schema).toMatchObject(SCHEMA);
    // The second request told the model to call the tool; the turn ended with the call (no third request).
    expect(JSON.stringify(server!.requests[1]!.body.messages?.at(-1))).toContain('MUST call the StructuredOutput tool');
    expect(server!.requests).toHaveLength(2);
  });

  it('-p stream-json: a call that does not match is retried with the reason, then five misses end the turn', async () => {
    const { run, result, lines } = await print([bad('a'), bad('b'), bad('c'), bad('d'), bad('e'), good], 'stream-json');
    expect(run.code).toBe(1);
    expect(result).toMatchObject({ type: 'result', subtype: 'error_max_structured_output_retries', is_error: true });
    expect(result).not.toHaveProperty('structured_output');
    expect(server!.requests).toHaveLength(5);
    expect(JSON.stringify(server!.requests[1]!.body.messages?.at(-1))).toMatch(/answer.*number/);
    expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect((lines[0] as { tools: string[] }).tools).toContain('StructuredOutput');
  });

  it('Agent SDK 0.3 outputFormat and 0.2 outputFormat: structured_output in the result', async () => {
    const { root, home } = tempProject('mca-structured-sdk-');
    server = await startFakeAnthropic([good, good]);
    const outputFormat = { type: 'json_schema' as const, schema: SCHEMA };
    const messages = await sdkQuery({ root, home, baseUrl: server.url }, 'the answer?', { outputFormat });
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', structured_output: { answer: 42 } });
    const old = query02({
      prompt: 'the answer?',
      options: {
        pathToClaudeCodeExecutable: MCA_BIN,
        cwd: root,
        env: sdkEnv({ root, home, baseUrl: server.url }),
        outputFormat,
      },
    });
    let last: unknown;
    for await (const message of old) last = message;
    expect(last).toMatchObject({ type: 'result', subtype: 'success', structured_output: { answer: 42 } });
  }, 60_000);
});

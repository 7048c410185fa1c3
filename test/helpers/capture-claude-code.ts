/**
 * Captures what Claude Code's own binary (the one the Agent SDK packages bring) writes in stream-json mode, for the
 * golden shapes in test/fixtures/claude-code-stream/. Runs it against the loopback fake Anthropic server with a dummy
 * key and an isolated HOME, drives one scripted session over stdin, and writes every stdout line as it came.
 *   tsx test/helpers/capture-claude-code.ts <out.jsonl> [--no-state-events] [--hooks] [--partial]
 * Scenario: initialize; "run a command" (a Bash call that needs a yes: can_use_tool, answered allow); "retry" (the
 * first request answered 529 once: api_retry); "hello" (plain answer); "/compact" (compact_boundary). With --hooks a
 * PreToolUse command hook is configured and --include-hook-events given.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic, userText, type FakeRequestBody } from './fake-anthropic-server.js';

export const CLAUDE_BIN = fileURLToPath(
  new URL('../../node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude', import.meta.url),
);

function lastUser(body: FakeRequestBody): { text: string; toolResult: boolean } {
  const last = (body.messages ?? []).filter((message) => message.role === 'user').at(-1);
  if (!last) return { text: '', toolResult: false };
  if (typeof last.content === 'string') return { text: last.content, toolResult: false };
  return {
    text: last.content.map((block) => block.text ?? '').join('\n'),
    toolResult: last.content.some((block) => block.type === 'tool_result'),
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const out = args.find((arg) => !arg.startsWith('--'));
  if (!out) throw new Error('usage: capture-claude-code <out.jsonl> [--no-state-events] [--hooks]');
  let retried = false;
  const fake = await startFakeAnthropic(
    [
      (body) => {
        const all = userText(body);
        const { text, toolResult } = lastUser(body);
        if (/summar/i.test(all) && /conversation/i.test(all) && !body.tools) return { text: '<summary>s</summary>' };
        if (!Array.isArray(body.tools) || body.tools.length === 0) return { text: 'side answer' };
        if (toolResult) return { text: 'done' };
        if (/run a command/.test(text))
          return { text: '', calls: [{ name: 'Bash', input: { command: 'touch made-by-bash' } }] };
        if (/retry/.test(text) && !retried) {
          retried = true;
          return { status: 529 };
        }
        return { text: 'ok' };
      },
    ],
    { loop: true },
  );
  const home = mkdtempSync(join(tmpdir(), 'cc-capture-home-'));
  const project = mkdtempSync(join(tmpdir(), 'cc-capture-project-'));
  const hooks = args.includes('--hooks');
  if (hooks) {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } }),
    );
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    ANTHROPIC_API_KEY: 'sk-ant-capture-dummy',
    ANTHROPIC_BASE_URL: fake.url,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  if (!args.includes('--no-state-events')) env.CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS = '1';
  const child = spawn(
    CLAUDE_BIN,
    [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--input-format',
      'stream-json',
      '--permission-prompt-tool',
      'stdio',
      ...(hooks ? ['--include-hook-events'] : []),
      ...(args.includes('--partial') ? ['--include-partial-messages'] : []),
    ],
    { cwd: project, env, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  const prompts = ['run a command', 'retry', 'hello', '/compact'];
  const send = (message: object): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
  const nextPrompt = (): void => {
    const text = prompts.shift();
    if (text === undefined) return void child.stdin.end();
    send({
      type: 'user',
      message: { role: 'user', content: text },
      parent_tool_use_id: null,
      session_id: '',
      uuid: randomUUID(),
    });
  };
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let at: number;
    while ((at = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (line.trim() === '') continue;
      lines.push(line);
      const message = JSON.parse(line) as { type?: string; request_id?: string; request?: { subtype?: string } };
      if (message.type === 'control_request' && message.request?.subtype === 'can_use_tool') {
        send({
          type: 'control_response',
          response: { subtype: 'success', request_id: message.request_id, response: { behavior: 'allow' } },
        });
      }
      if (message.type === 'control_response') nextPrompt();
      if (message.type === 'result') nextPrompt();
    }
  });
  send({ type: 'control_request', request_id: 'init-1', request: { subtype: 'initialize' } });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  writeFileSync(out, `${lines.join('\n')}\n`);
  await fake.close();
  process.stderr.write(`claude exited ${String(code)}; ${lines.length} lines in ${out}\n`);
}

await main();

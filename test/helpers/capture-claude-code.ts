/**
 * Captures what Claude Code's own binary (the one the Agent SDK packages bring) writes in stream-json mode, for the
 * golden shapes in test/fixtures/claude-code-stream/. Runs it against the loopback fake Anthropic server with a dummy
 * key and an isolated HOME, drives one scripted session over stdin, and writes every stdout line as it came.
 *   tsx test/helpers/capture-claude-code.ts <out.jsonl> [--no-state-events] [--hooks] [--partial] [--print-prompt]
 * (`--print-prompt`: `-p "hi"` with stream-json output instead of the stdin session.)
 * Scenario (`driveScenario`, which the tests run against mca too): initialize; "run a command" (a Bash call that
 * needs a yes: can_use_tool, answered allow); "retry" (the request answered 529 once: api_retry); "hello" (plain
 * answer); "/compact" (compact_boundary; Claude Code only). With --hooks a PreToolUse command hook is configured
 * and --include-hook-events given.
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

export const SCENARIO_PROMPTS = ['run a command', 'retry', 'hello', '/compact'] as const;

function lastUser(body: FakeRequestBody): { text: string; toolResult: boolean } {
  const last = (body.messages ?? []).filter((message) => message.role === 'user').at(-1);
  if (!last) return { text: '', toolResult: false };
  if (typeof last.content === 'string') return { text: last.content, toolResult: false };
  // The last text block: mca sends the history before the current request in the same message.
  return {
    text: last.content.filter((block) => block.type === 'text').at(-1)?.text ?? '',
    toolResult: last.content.some((block) => block.type === 'tool_result'),
  };
}

export interface ScenarioOptions {
  /** The program and its arguments before the stream-json flags. */
  command: string;
  args: string[];
  /** Extra flags (`--include-hook-events`, …). */
  flags?: string[];
  /** Environment beside PATH, HOME, the key and the base URL. */
  env?: Record<string, string>;
  /** Settings written to `~/.claude/settings.json` of the isolated HOME. */
  settings?: object;
  prompts?: readonly string[];
}

/** Runs the scenario against a fresh fake API; resolves with every stdout line (parsed) and the exit code. */
export async function driveScenario(
  options: ScenarioOptions,
): Promise<{ lines: Array<Record<string, unknown>>; raw: string[]; code: number | null; stderr: string }> {
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
          return { text: '', calls: [{ name: 'Bash', input: { command: 'touch made' } }] };
        if (/retry/.test(text) && !retried) {
          retried = true;
          return { status: 529 };
        }
        return { text: 'ok' };
      },
    ],
    { loop: true },
  );
  const home = mkdtempSync(join(tmpdir(), 'cc-scenario-home-'));
  const project = mkdtempSync(join(tmpdir(), 'cc-scenario-project-'));
  if (options.settings) {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify(options.settings));
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    MCA_HOME: join(home, '.mca'),
    ANTHROPIC_API_KEY: 'sk-ant-capture-dummy-0123456789',
    ANTHROPIC_BASE_URL: fake.url,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...options.env,
  };
  const child = spawn(
    options.command,
    [
      ...options.args,
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--input-format',
      'stream-json',
      '--permission-prompt-tool',
      'stdio',
      ...(options.flags ?? []),
    ],
    { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const raw: string[] = [];
  const prompts = [...(options.prompts ?? SCENARIO_PROMPTS)];
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
      raw.push(line);
      const message = JSON.parse(line) as { type?: string; request_id?: string; request?: { subtype?: string } };
      if (message.type === 'control_request' && message.request?.subtype === 'can_use_tool') {
        send({
          type: 'control_response',
          response: { subtype: 'success', request_id: message.request_id, response: { behavior: 'allow' } },
        });
      }
      if (message.type === 'control_response' || message.type === 'result') nextPrompt();
    }
  });
  send({ type: 'control_request', request_id: 'init-1', request: { subtype: 'initialize' } });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  await fake.close();
  return { lines: raw.map((line) => JSON.parse(line) as Record<string, unknown>), raw, code, stderr };
}

/** `<command> -p hi --output-format stream-json --verbose` against a fresh fake; every stdout line. */
export async function printPrompt(command: string, args: string[], env: Record<string, string>): Promise<string[]> {
  const fake = await startFakeAnthropic([{ text: 'ok' }], { loop: true });
  const home = mkdtempSync(join(tmpdir(), 'cc-print-home-'));
  const child = spawn(command, [...args, '-p', 'hi', '--output-format', 'stream-json', '--verbose'], {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      MCA_HOME: join(home, '.mca'),
      ANTHROPIC_API_KEY: 'sk-ant-capture-dummy-0123456789',
      ANTHROPIC_BASE_URL: fake.url,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  await new Promise((resolve) => child.on('exit', resolve));
  await fake.close();
  return out.split('\n').filter((line) => line.trim() !== '');
}

if (process.argv[1]?.endsWith('capture-claude-code.ts') && process.argv.includes('--print-prompt')) {
  const out = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  if (!out) throw new Error('usage: capture-claude-code <out.jsonl> --print-prompt');
  const lines = await printPrompt(CLAUDE_BIN, [], { CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1' });
  writeFileSync(out, `${lines.join('\n')}\n`);
} else if (process.argv[1]?.endsWith('capture-claude-code.ts')) {
  const args = process.argv.slice(2);
  const out = args.find((arg) => !arg.startsWith('--'));
  if (!out) throw new Error('usage: capture-claude-code <out.jsonl> [--no-state-events] [--hooks] [--partial]');
  const hooks = args.includes('--hooks');
  const run = await driveScenario({
    command: CLAUDE_BIN,
    args: [],
    env: args.includes('--no-state-events') ? {} : { CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1' },
    flags: [
      ...(hooks ? ['--include-hook-events'] : []),
      ...(args.includes('--partial') ? ['--include-partial-messages'] : []),
    ],
    ...(hooks
      ? { settings: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } } }
      : {}),
  });
  writeFileSync(out, `${run.raw.join('\n')}\n`);
  process.stderr.write(`exited ${String(run.code)}; ${run.raw.length} lines in ${out}\n`);
}

/**
 * Issue 23, second red team, the provider half of class 8 and the second half of class 11: a stream that only
 * keeps the connection alive (pings, empty deltas, SSE comments) or trickles forever must end `-p` with one clear
 * line, and Ctrl-C must end it whatever the stream does; an answer that arrived must reach stdout even when saving
 * it fails because MCA_HOME filled up. Real binary against loopback servers written here (they never finish).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../helpers/fake-anthropic-server.js';
import {
  API_KEY,
  BIN,
  collect,
  finish,
  makeSandbox,
  runMca,
  spawnMca,
  type RunResult,
  type Sandbox,
} from './harness.js';
import { ResultLog } from './results.js';

const log = new ResultLog('hangs-2');
const order: string[] = [];

/** What a never-ending stream sends, every 100 ms, after the SSE headers (and an optional opening). */
interface Forever {
  opening: string[];
  tick: () => string;
}

const sse = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
const MESSAGE_START = sse('message_start', {
  type: 'message_start',
  message: {
    id: 'm',
    type: 'message',
    role: 'assistant',
    content: [],
    model: 'x',
    stop_reason: null,
    usage: { input_tokens: 1, output_tokens: 0 },
  },
});
const BLOCK_START = sse('content_block_start', {
  type: 'content_block_start',
  index: 0,
  content_block: { type: 'text', text: '' },
});
const PING = sse('ping', { type: 'ping' });
const textDelta = (text: string): string =>
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });

/** A loopback server answering every request with `forever`; counts requests; never ends a stream itself. */
async function startForever(forever: Forever): Promise<{ url: string; requests: () => number; close: () => void }> {
  let requests = 0;
  const open = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    requests += 1;
    request.resume();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of forever.opening) response.write(chunk);
    open.add(response);
    const timer = setInterval(() => response.write(forever.tick()), 100);
    timers.add(timer);
    response.on('close', () => {
      clearInterval(timer);
      open.delete(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => {
      for (const timer of timers) clearInterval(timer);
      for (const response of open) response.destroy();
      server.close();
    },
  };
}

function mcaLines(result: RunResult): string[] {
  return result.stderr.split('\n').filter((line) => line.startsWith('mca: '));
}

function scenario(fault: string, body: (sandbox: Sandbox) => Promise<string>): void {
  order.push(fault);
  it(fault, { timeout: 60_000 }, async () => {
    const sandbox = await makeSandbox('mca-hangs2');
    try {
      await log.track('hangs-2', fault, () => body(sandbox));
    } finally {
      await sandbox.cleanup();
    }
  });
}

const IDLE_ENV = { MCA_STREAM_IDLE_TIMEOUT_MS: '1500', MCA_MAX_RETRIES: '0' };
let trickle = 0;
const streams: Array<[string, Forever, Record<string, string>, RegExp]> = [
  [
    'Anthropic stream: ping events only, forever',
    { opening: [], tick: () => PING },
    IDLE_ENV,
    /^mca: The Anthropic API sent nothing for 1\.5s; the stream was abandoned\.$/,
  ],
  [
    'Anthropic stream: message_start, then pings forever',
    { opening: [MESSAGE_START], tick: () => PING },
    IDLE_ENV,
    /^mca: The Anthropic API sent nothing for 1\.5s; the stream was abandoned\.$/,
  ],
  [
    'Anthropic stream: empty text deltas forever',
    { opening: [MESSAGE_START, BLOCK_START], tick: () => textDelta('') },
    IDLE_ENV,
    /^mca: The Anthropic API sent nothing for 1\.5s; the stream was abandoned\.$/,
  ],
  [
    'Anthropic stream: SSE comments and unknown events forever',
    { opening: [MESSAGE_START], tick: () => `: keep-alive\n\n${sse('heartbeat', { type: 'heartbeat' })}` },
    IDLE_ENV,
    /^mca: The Anthropic API sent nothing for 1\.5s; the stream was abandoned\.$/,
  ],
  [
    'Anthropic stream: real text trickling forever (overall deadline 3 s)',
    { opening: [MESSAGE_START, BLOCK_START], tick: () => textDelta(`w${(trickle += 1)} `) },
    { MCA_MODEL_CALL_TIMEOUT_MS: '3000', MCA_TOOL_PROTOCOL: 'native' },
    /^mca: The Anthropic API did not finish the response within 3s \(modelCallTimeoutMs\); the call was abandoned\.$/,
  ],
  [
    'Anthropic stream: pings forever with 20 retries allowed (overall deadline 4 s)',
    { opening: [], tick: () => PING },
    { MCA_STREAM_IDLE_TIMEOUT_MS: '1000', MCA_MAX_RETRIES: '20', MCA_MODEL_CALL_TIMEOUT_MS: '4000' },
    /^mca: The Anthropic API did not finish the response within 4s \(modelCallTimeoutMs\); the call was abandoned\.$/,
  ],
  [
    'OpenAI-compatible stream: empty chunks forever',
    { opening: [], tick: () => `data: ${JSON.stringify({ choices: [{ index: 0, delta: {} }] })}\n\n` },
    { ...IDLE_ENV, MCA_PROVIDER: 'openai', OPENAI_API_KEY: 'local' },
    /^mca: The OpenAI-compatible API at .* sent nothing for 1\.5s; the stream was abandoned\.$/,
  ],
];

describe.concurrent('streams that never end, and an answer MCA_HOME cannot hold', () => {
  afterAll(() => log.write(order));

  for (const [fault, forever, env, line] of streams) {
    scenario(fault, async (sandbox) => {
      const server = await startForever(forever);
      try {
        const urls = { ANTHROPIC_BASE_URL: server.url, OPENAI_BASE_URL: `${server.url}/v1` };
        const result = await runMca(sandbox, ['-p', 'hi'], {
          baseUrl: server.url,
          env: { ...urls, ...env },
          timeoutMs: 30_000,
        });
        expect(result.signal, result.stderr).toBeNull();
        expect(result.code, result.stderr).toBe(1);
        expect(mcaLines(result).at(-1)).toMatch(line);
        return `exit 1 after ${server.requests()} request(s): ${mcaLines(result)
          .at(-1)
          ?.replace(/127\.0\.0\.1:\d+/, '<loopback>')}`;
      } finally {
        server.close();
      }
    });
  }

  const interrupts: Array<[string, Forever]> = [
    ['Ctrl-C (SIGINT) while the stream sends only pings', { opening: [MESSAGE_START], tick: () => PING }],
    [
      'Ctrl-C (SIGINT) while text trickles forever',
      { opening: [MESSAGE_START, BLOCK_START], tick: () => textDelta('w ') },
    ],
  ];
  for (const [fault, forever] of interrupts) {
    scenario(fault, async (sandbox) => {
      const server = await startForever(forever);
      try {
        const child = spawnMca(sandbox, ['-p', 'hi'], {
          baseUrl: server.url,
          env: { MCA_STREAM_IDLE_TIMEOUT_MS: '600000', MCA_TOOL_PROTOCOL: 'native' },
        });
        // Killed by the harness (signal SIGKILL) if SIGINT did not end it within a few seconds.
        const run = collect(child, 20_000);
        while (server.requests() === 0) await new Promise((resolve) => setTimeout(resolve, 50));
        await new Promise((resolve) => setTimeout(resolve, 500));
        child.kill('SIGINT');
        const result = await run.done;
        expect(result.signal, result.stderr).toBeNull();
        expect(result.code).toBe(130);
        return `exit 130 (interrupted), not killed by the harness's 20 s guard`;
      } finally {
        server.close();
      }
    });
  }

  const unshareWorks =
    spawnSync('unshare', ['-rm', 'true']).status === 0 || spawnSync('unshare', ['-m', 'true']).status === 0;
  const answer = `THE-ANSWER ${'a'.repeat(7000)} END`;
  const fills: Array<[string, string, string]> = [
    ['MCA_HOME fills up as the final answer is saved (text)', '-p hi', 'text'],
    ['MCA_HOME fills up as the final answer is saved (--output-format json)', '-p hi --output-format json', 'json'],
  ];
  for (const [fault, args, format] of fills) {
    scenario(fault, async (sandbox) => {
      expect(unshareWorks, 'unshare (mount namespace) is needed to give MCA_HOME a small tmpfs').toBe(true);
      const server = await startFakeAnthropic([finish(answer)]);
      try {
        // tmpfs hands out whole 4 KB pages: 8 KB free holds the lock and the session's first page, not a 7 KB answer.
        const script = [
          `mount -t tmpfs -o size=12k tmpfs "$MCA_HOME"`,
          'head -c 4096 /dev/zero > "$MCA_HOME/filler"',
          `exec "${process.execPath}" "${BIN}" ${args} --cwd "${sandbox.project}"`,
        ].join(' && ');
        const unshare = spawnSync('unshare', ['-rm', 'true']).status === 0 ? ['-rm'] : ['-m'];
        const child = spawn('unshare', [...unshare, 'sh', '-c', script], {
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            ANTHROPIC_API_KEY: API_KEY,
            ANTHROPIC_BASE_URL: server.url,
            MCA_HOME: sandbox.home,
            MCA_TOOL_PROTOCOL: 'text',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const result = await collect(child, 30_000).done;
        expect(result.code, result.stderr).toBe(1);
        const failure = /cannot write session file .*\.jsonl: no space left on the device \(ENOSPC\)/;
        if (format === 'text') {
          expect(result.stdout).toBe(`${answer}\n`);
          expect(mcaLines(result)).toEqual([expect.stringMatching(failure)]);
        } else {
          // Claude Code's result object (issue 24): the reason is in `errors`.
          const parsed = JSON.parse(result.stdout) as { result: string; is_error: boolean; errors: string[] };
          expect(parsed.result).toBe(answer);
          expect(parsed.is_error).toBe(true);
          expect(parsed.errors[0]).toMatch(failure);
        }
        return format === 'text'
          ? 'exit 1: the answer on stdout, then one line: The turn failed: cannot write session file … (ENOSPC)'
          : 'exit 1: result holds the answer, is_error true, errors names the ENOSPC write';
      } finally {
        await server.close();
      }
    });
  }
});

/**
 * Drives the built `mca` through the real Claude Agent SDK: `query()` with `pathToClaudeCodeExecutable` pointing at
 * dist/cli/mca.cjs, against the loopback fake Anthropic server. The SDK spawns mca as it spawns Claude Code
 * (stream-json in and out, the control protocol), so these runs see what an SDK program sees.
 */
import { query, type Options, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import type { FakeAnthropic } from './fake-anthropic-server.js';
import { MCA_BIN } from './run-mca.js';

export const SDK_KEY = 'sk-ant-test-agent-sdk-0123456789';

export interface SdkProject {
  root: string;
  home: string;
  baseUrl: string;
}

/** The environment mca gets: the fake server, a private MCA_HOME, nothing from the developer's shell. */
export function sdkEnv(project: SdkProject, extra: Record<string, string> = {}): Record<string, string> {
  const keep = ['PATH', 'LANG', 'TMPDIR'];
  const base = Object.fromEntries(keep.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
  return {
    ...base,
    HOME: project.home,
    ANTHROPIC_API_KEY: SDK_KEY,
    ANTHROPIC_BASE_URL: project.baseUrl,
    MCA_HOME: project.home,
    ...extra,
  };
}

export function sdkOptions(project: SdkProject, options: Options = {}): Options {
  return {
    pathToClaudeCodeExecutable: MCA_BIN,
    cwd: project.root,
    env: sdkEnv(project),
    ...options,
  };
}

/** Every message of one query, in order. */
export async function collect(run: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (const message of run) messages.push(message);
  return messages;
}

/** A user message as an SDK program streams it (content as blocks, as the SDK sends it). */
export function userMessage(text: string): SDKUserMessage {
  return {
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text }] },
    parent_tool_use_id: null,
  };
}

/** Runs `prompt` through query() and returns every message. */
export function sdkQuery(
  project: SdkProject,
  prompt: string | AsyncIterable<SDKUserMessage>,
  options: Options = {},
): Promise<SDKMessage[]> {
  return collect(query({ prompt, options: sdkOptions(project, options) }));
}

/** The content of the tool_result mca sent the fake model for call `id` (as JSON); throws when none was sent. */
export function toolResultSent(fake: FakeAnthropic, id: string): string {
  for (const request of fake.requests) {
    for (const message of request.body.messages ?? []) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content) {
        if (block.type === 'tool_result' && block.tool_use_id === id) return JSON.stringify(block.content);
      }
    }
  }
  throw new Error(`no tool_result for ${id}`);
}

/**
 * One streaming-input session the test drives turn by turn: `turn(text)` sends a user message and resolves with
 * its result line (every message read on the way is kept in `messages`); between turns the test may call the
 * Query's control methods; `end()` closes the input and drains the rest.
 */
export function conversation(project: SdkProject, options: Options = {}) {
  const waiting: SDKUserMessage[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  async function* input(): AsyncGenerator<SDKUserMessage> {
    for (;;) {
      const next = waiting.shift();
      if (next) yield next;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  const poke = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const run = query({ prompt: input(), options: sdkOptions(project, options) });
  const messages: SDKMessage[] = [];
  const reader = run[Symbol.asyncIterator]();
  const nextResult = async (): Promise<SDKMessage> => {
    for (;;) {
      const next = await reader.next();
      if (next.done) throw new Error('the session ended before a result');
      messages.push(next.value);
      if (next.value.type === 'result') return next.value;
    }
  };
  return {
    run,
    messages,
    /** Sends `text` without waiting (`result()` then reads its result). */
    send(text: string): void {
      waiting.push(userMessage(text));
      poke();
    },
    result: nextResult,
    async turn(text: string): Promise<SDKMessage> {
      this.send(text);
      return await nextResult();
    },
    async end(): Promise<void> {
      ended = true;
      poke();
      for (;;) {
        const next = await reader.next();
        if (next.done) return;
        messages.push(next.value);
      }
    },
  };
}

/**
 * A loopback stand-in for an OpenAI-compatible chat completions API (POST /v1/chat/completions, streaming),
 * driven by a script of steps. Every request is recorded. `url` is the base URL including `/v1`, as
 * OPENAI_BASE_URL expects.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { listenLoopback, readBody, splitChunks, startSse, writeJson } from './loopback-http.js';
import { jsonPieces, nativePlan, type FakeToolUse } from './fake-native.js';

export interface FakeOpenAIRequestBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  stop?: string[];
  temperature?: number;
  max_completion_tokens?: number;
  tools?: unknown[];
  messages?: Array<{
    role: string;
    content: string | null;
    tool_call_id?: string;
    tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  }>;
  [key: string]: unknown;
}

/** A streamed answer. Usage goes in a final chunk when the request asks for it (unless `omitUsage`). */
export interface FakeOpenAIReplyStep {
  text: string;
  /** Native tool use (a request with `tools`): streamed as `tool_calls` deltas after the text; see fake-native.ts. */
  calls?: FakeToolUse[];
  /** Defaults: prompt 100, completion ≈ text length / 4, cached 0. */
  usage?: { prompt_tokens?: number; completion_tokens?: number; cached_tokens?: number };
  /** Default 'stop'. */
  finishReason?: string;
  /** Number of content deltas (default 3, at most one per character). */
  chunks?: number;
  /** Behave like a server that ignores stream_options.include_usage. */
  omitUsage?: boolean;
}

export interface FakeOpenAIHttpErrorStep {
  status: number;
  message?: string;
  code?: string;
  headers?: Record<string, string>;
}

/** `true`: never answer. 'headers': 200 SSE headers, then nothing. 'text': `text` as deltas, then nothing. */
export interface FakeOpenAIHangStep {
  hang: true | 'headers' | 'text';
  text?: string;
}

/** Sends `text` (default "partial") as deltas, then destroys the socket ('clean': ends the response instead). */
export interface FakeOpenAIDisconnectStep {
  disconnect: true | 'clean';
  text?: string;
}

/** Sends `text`, then a `data: {"error": …}` chunk and ends the stream (OpenRouter reports upstream failures so). */
export interface FakeOpenAIStreamErrorStep {
  streamError: { message: string; code?: string | number };
  text?: string;
}

export type FakeOpenAIPlainStep =
  | FakeOpenAIReplyStep
  | FakeOpenAIHttpErrorStep
  | FakeOpenAIHangStep
  | FakeOpenAIDisconnectStep
  | FakeOpenAIStreamErrorStep;

export type FakeOpenAIStep =
  FakeOpenAIPlainStep | ((body: FakeOpenAIRequestBody, index: number) => FakeOpenAIPlainStep);

export interface FakeOpenAIRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: FakeOpenAIRequestBody;
}

export interface FakeOpenAI {
  /** Base URL including the version path, e.g. http://127.0.0.1:43210/v1 */
  url: string;
  requests: FakeOpenAIRequest[];
  /** TCP connections the fake accepted so far (a client that keeps connections alive reuses one). */
  connections(): number;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** When set, a request with another Bearer token gets a 401 (without consuming a step). */
  apiKey?: string;
}

/** The user message's content of a recorded request. */
export function openaiUserText(body: FakeOpenAIRequestBody): string {
  return (body.messages ?? [])
    .filter((message) => message.role === 'user' || message.role === 'tool')
    .map((message) => message.content ?? '')
    .join('\n');
}

function errorJson(message: string, code: string | null): unknown {
  return { error: { message, type: 'invalid_request_error', param: null, code } };
}

let counter = 0;

function chunk(model: string, delta: Record<string, unknown>, finishReason: string | null, usage?: unknown): string {
  const choices = usage === undefined ? [{ index: 0, delta, finish_reason: finishReason }] : [];
  const body = {
    id: `chatcmpl-fake-${counter}`,
    object: 'chat.completion.chunk',
    model,
    choices,
    usage: usage ?? null,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function writeText(res: ServerResponse, model: string, text: string, chunks: number): Promise<void> {
  res.write(chunk(model, { role: 'assistant', content: '' }, null));
  for (const piece of splitChunks(text, chunks)) {
    res.write(chunk(model, { content: piece }, null));
    await tick();
  }
}

async function reply(res: ServerResponse, step: FakeOpenAIReplyStep, body: FakeOpenAIRequestBody): Promise<void> {
  const model = body.model ?? 'fake-model';
  const native = Array.isArray(body.tools) ? nativePlan(step.text, step.calls) : undefined;
  let text = native ? native.text : step.text;
  let finishReason = step.finishReason ?? (native && native.calls.length > 0 ? 'tool_calls' : 'stop');
  for (const stop of body.stop ?? []) {
    const at = text.indexOf(stop);
    if (at >= 0) {
      text = text.slice(0, at);
      finishReason = 'stop';
    }
  }
  counter++;
  startSse(res);
  await writeText(res, model, text, step.chunks ?? 3);
  for (const [index, call] of (native?.calls ?? []).entries()) {
    const opening = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    res.write(chunk(model, { tool_calls: [opening] }, null));
    for (const piece of jsonPieces(call.input)) {
      res.write(chunk(model, { tool_calls: [{ index, function: { arguments: piece } }] }, null));
      await tick();
    }
  }
  res.write(chunk(model, {}, finishReason));
  if (body.stream_options?.include_usage === true && step.omitUsage !== true) {
    const prompt = step.usage?.prompt_tokens ?? 100;
    const completion = step.usage?.completion_tokens ?? Math.max(1, Math.ceil(text.length / 4));
    const usage = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: step.usage?.cached_tokens ?? 0 },
    };
    res.write(chunk(model, {}, null, usage));
  }
  res.end('data: [DONE]\n\n');
}

async function answer(res: ServerResponse, step: FakeOpenAIPlainStep, body: FakeOpenAIRequestBody): Promise<void> {
  const model = body.model ?? 'fake-model';
  if ('status' in step) {
    writeJson(
      res,
      step.status,
      errorJson(step.message ?? `fake error ${step.status}`, step.code ?? null),
      step.headers,
    );
  } else if ('hang' in step) {
    if (step.hang === true) return; // never answer; close() destroys the socket
    startSse(res);
    if (step.hang === 'text') await writeText(res, model, step.text ?? 'partial', 2);
  } else if ('disconnect' in step) {
    startSse(res);
    await writeText(res, model, step.text ?? 'partial', 2);
    if (step.disconnect === 'clean') {
      res.end();
      return;
    }
    // Let the written deltas reach the client before the connection drops.
    await new Promise((resolve) => setTimeout(resolve, 20));
    res.socket?.destroy();
  } else if ('streamError' in step) {
    startSse(res);
    await writeText(res, model, step.text ?? '', 2);
    res.end(`data: ${JSON.stringify({ error: step.streamError })}\n\n`);
  } else {
    await reply(res, step, body);
  }
}

export async function startFakeOpenAI(
  script: FakeOpenAIStep[] = [],
  options: FakeOpenAIOptions = {},
): Promise<FakeOpenAI> {
  let next = 0;
  const requests: FakeOpenAIRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      writeJson(res, 404, errorJson(`fake-openai: no route ${req.method ?? '?'} ${path}`, 'unknown_url'));
      return;
    }
    let body: FakeOpenAIRequestBody;
    try {
      body = JSON.parse(raw) as FakeOpenAIRequestBody;
    } catch {
      writeJson(res, 400, errorJson('fake-openai: body is not valid JSON', null));
      return;
    }
    requests.push({ path, headers: req.headers, body });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (options.apiKey !== undefined && bearer !== options.apiKey) {
      writeJson(res, 401, errorJson('Incorrect API key provided.', 'invalid_api_key'));
      return;
    }
    if (body.stream !== true || !Array.isArray(body.messages) || typeof body.model !== 'string') {
      writeJson(res, 400, errorJson('fake-openai: expected a streaming request with model and messages', null));
      return;
    }
    const index = next++;
    const step = script[index];
    if (step === undefined) {
      writeJson(res, 500, errorJson(`fake-openai: script exhausted at request ${requests.length}`, null));
      return;
    }
    await answer(res, typeof step === 'function' ? step(body, index) : step, body);
  };

  const server = await listenLoopback('fake-openai', handle, (res, error) =>
    writeJson(res, 500, errorJson(`fake-openai: ${String(error)}`, null)),
  );
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    connections: () => server.connections(),
    close: () => server.close(),
  };
}

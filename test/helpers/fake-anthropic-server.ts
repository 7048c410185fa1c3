/**
 * A loopback stand-in for the Anthropic Messages API (POST /v1/messages, streaming and not), driven by a
 * script of steps. Every request is recorded. Tests talk to it through the provider (and the SDK, in the wire test).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { listenLoopback, readBody, splitChunks, startSse, writeJson } from './loopback-http.js';
import {
  errorBody,
  messageJson,
  resolveReply,
  sseEvent,
  streamPrelude,
  textDelta,
  writeStream,
} from './fake-anthropic-sse.js';
import {
  errorTypeFor,
  isDisconnect,
  isHang,
  isHttpError,
  isStreamError,
  type FakePlainStep,
  type FakeRequestBody,
  type FakeStep,
} from './fake-anthropic-steps.js';

export * from './fake-anthropic-steps.js';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: FakeRequestBody;
}

export interface FakeAnthropicOptions {
  /** Replay the script from the start when it runs out (benchmarks, long e2e runs). */
  loop?: boolean;
  /** When set, requests carrying another key (x-api-key or Bearer) get a 401 (without consuming a step). */
  apiKey?: string;
  /** Serve https with this key and certificate (the url is then https://). */
  tls?: { key: Buffer; cert: Buffer };
  /**
   * Models the fake cannot serve: a request for one gets this HTTP status (529: `overloaded_error`, 404:
   * `not_found_error`, …) every time, without consuming a step (a model that is down, whatever the script says).
   */
  modelErrors?: Record<string, number>;
}

export interface FakeAnthropic {
  /** Base URL to give the SDK, e.g. http://127.0.0.1:43210 */
  url: string;
  requests: FakeRequest[];
  setScript(script: FakeStep[]): void;
  /** TCP connections the fake accepted so far (a client that keeps connections alive reuses one). */
  connections(): number;
  close(): Promise<void>;
}

const PARTIAL = 'partial';

/** The key a request carries: `x-api-key`, or `Authorization: Bearer` (what SDK 1.x sends). */
export function requestApiKey(headers: IncomingHttpHeaders): string | undefined {
  const direct = headers['x-api-key'];
  if (typeof direct === 'string') return direct;
  const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '');
  return bearer?.[1];
}

/** The checks of the real API that catch mapping bugs: a message list, no empty text block, no lone server tool use. */
function validate(body: FakeRequestBody): string | undefined {
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  const blocks = [
    ...(Array.isArray(body.system) ? body.system : []),
    ...body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])),
  ];
  if (blocks.some((block) => block.type === 'text' && block.text === ''))
    return 'text content blocks must be non-empty';
  // A paused turn sent back must keep each server_tool_use with its result (the API refuses a lone one).
  const turn = body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
  const results = new Set(turn.filter((block) => block.type === 'web_search_tool_result').map((b) => b.tool_use_id));
  const lone = turn.find((block) => block.type === 'server_tool_use' && !results.has(block.id));
  if (lone)
    return `'web_search' tool use with id '${lone.id}' was found without a corresponding 'web_search_tool_result' block`;
  if (blocks.filter((block) => block.cache_control).length > 4) {
    return 'A maximum of 4 blocks with cache_control may be provided.';
  }
  return undefined;
}

async function answer(res: ServerResponse, step: FakePlainStep, body: FakeRequestBody): Promise<void> {
  const model = body.model ?? 'fake-model';
  if (isHttpError(step)) {
    const type = step.errorType ?? errorTypeFor(step.status);
    writeJson(res, step.status, errorBody(type, step.message ?? `fake ${type}`), step.headers);
    return;
  }
  if (isHang(step)) {
    if (step.hang === true) return; // never answer; close() destroys the socket
    startSse(res);
    if (step.hang === 'text') {
      res.write(
        streamPrelude(model, {
          input_tokens: 100,
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        }),
      );
      for (const piece of splitChunks(step.text ?? PARTIAL, 2)) res.write(textDelta(piece));
    }
    return;
  }
  if (isDisconnect(step) || isStreamError(step)) {
    startSse(res);
    res.write(
      streamPrelude(model, {
        input_tokens: 100,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      }),
    );
    const text = step.text ?? (isDisconnect(step) ? PARTIAL : '');
    for (const piece of splitChunks(text, 2)) res.write(textDelta(piece));
    if (isStreamError(step)) {
      res.end(sseEvent('error', { type: 'error', error: step.streamError }));
      return;
    }
    // Let the written deltas reach the client before the connection drops.
    await new Promise((resolve) => setTimeout(resolve, 20));
    res.socket?.destroy();
    return;
  }
  const reply = resolveReply(step, body);
  if (body.stream === true) await writeStream(res, model, reply);
  else writeJson(res, 200, messageJson(model, reply));
}

export async function startFakeAnthropic(
  script: FakeStep[] = [],
  options: FakeAnthropicOptions = {},
): Promise<FakeAnthropic> {
  let steps = [...script];
  let next = 0;
  const requests: FakeRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);
    if (req.method !== 'POST' || path !== '/v1/messages') {
      writeJson(res, 404, errorBody('not_found_error', `fake-anthropic: no route ${req.method ?? '?'} ${path}`));
      return;
    }
    let body: FakeRequestBody;
    try {
      body = JSON.parse(raw) as FakeRequestBody;
    } catch {
      writeJson(res, 400, errorBody('invalid_request_error', 'fake-anthropic: body is not valid JSON'));
      return;
    }
    requests.push({ method: req.method, path, headers: req.headers, body });
    if (options.apiKey !== undefined && requestApiKey(req.headers) !== options.apiKey) {
      writeJson(res, 401, errorBody('authentication_error', 'invalid x-api-key'));
      return;
    }
    const invalid = validate(body);
    if (invalid) {
      writeJson(res, 400, errorBody('invalid_request_error', invalid));
      return;
    }
    const down = options.modelErrors?.[body.model ?? ''];
    if (down !== undefined) {
      const type = errorTypeFor(down);
      writeJson(res, down, errorBody(type, down === 404 ? `model: ${body.model ?? ''}` : `fake ${type}`));
      return;
    }
    if (next >= steps.length && options.loop && steps.length > 0) next = 0;
    const index = next++;
    const step = steps[index];
    if (step === undefined) {
      const message = `fake-anthropic: script exhausted at request ${requests.length} (script has ${steps.length} steps)`;
      writeJson(res, 500, errorBody('api_error', message));
      return;
    }
    await answer(res, typeof step === 'function' ? step(body, index) : step, body);
  };

  const server = await listenLoopback(
    'fake-anthropic',
    handle,
    (res, error) => writeJson(res, 500, errorBody('api_error', `fake-anthropic: ${String(error)}`)),
    options.tls === undefined ? {} : { tls: options.tls },
  );

  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${server.port}`,
    requests,
    setScript(script: FakeStep[]): void {
      steps = [...script];
      next = 0;
    },
    connections: () => server.connections(),
    close: () => server.close(),
  };
}

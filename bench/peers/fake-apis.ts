/**
 * One loopback server that speaks the four model APIs the programs use, answering with the Player's replies:
 * Anthropic Messages (the project's fake Anthropic writers, test/helpers/fake-anthropic-sse.ts), OpenAI chat
 * completions, OpenAI Responses and Gemini generateContent/streamGenerateContent. Every request body is kept.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { messageJson, resolveReply, writeStream } from '../../test/helpers/fake-anthropic-sse.js';
import type { FakeRequestBody } from '../../test/helpers/fake-anthropic-steps.js';
import { listenLoopback, readBody, startSse, writeJson } from '../../test/helpers/loopback-http.js';
import type { Player, Reply } from './player.js';
import type { DeclaredTool } from './tool-map.js';

type Json = Record<string, unknown>;

function propsOf(schema: unknown): string[] {
  const properties = (schema as { properties?: Json } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

/** The tools a request declares, in each API's shape. */
export function declaredTools(api: string, body: Json): DeclaredTool[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  if (api === 'gemini') {
    return tools.flatMap((tool) =>
      ((tool.functionDeclarations as Json[] | undefined) ?? []).map((fn) => ({
        name: String(fn.name),
        params: propsOf(fn.parametersJsonSchema ?? fn.parameters),
        kind: 'function' as const,
      })),
    );
  }
  return tools.map((tool) => {
    const fn = (tool.function as Json | undefined) ?? tool;
    const schema = fn.input_schema ?? fn.parameters;
    const kind = tool.type === 'custom' ? ('custom' as const) : ('function' as const);
    return { name: String(fn.name ?? tool.type), params: propsOf(schema), kind };
  });
}

let ids = 0;
const nextId = (prefix: string): string => `${prefix}_fake_${++ids}`;

function sse(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

function anthropic(res: ServerResponse, body: Json, reply: Reply): Promise<void> | void {
  const step =
    reply.kind === 'text'
      ? { text: reply.text }
      : { text: reply.call.say, calls: [{ name: reply.call.name, input: reply.call.input }] };
  const resolved = resolveReply(step, body as FakeRequestBody);
  const model = typeof body.model === 'string' ? body.model : 'fake';
  if (body.stream === true) return writeStream(res, model, resolved);
  writeJson(res, 200, messageJson(model, resolved));
}

function chat(res: ServerResponse, body: Json, reply: Reply): void {
  const model = body.model;
  const text = reply.kind === 'text' ? reply.text : reply.call.say;
  const calls =
    reply.kind === 'call'
      ? [
          {
            id: nextId('call'),
            type: 'function',
            function: { name: reply.call.name, arguments: JSON.stringify(reply.call.input) },
          },
        ]
      : [];
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
  if (body.stream !== true) {
    const message = { role: 'assistant', content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
    writeJson(res, 200, {
      id: nextId('chatcmpl'),
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
    return;
  }
  startSse(res);
  const chunk = (delta: Json, finishReason: string | null, extra: Json = {}): void =>
    sse(res, {
      id: 'chatcmpl_fake',
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...extra,
    });
  chunk({ role: 'assistant', content: text }, null);
  calls.forEach((call, index) => chunk({ tool_calls: [{ index, ...call }] }, null));
  chunk({}, finish);
  sse(res, { id: 'chatcmpl_fake', object: 'chat.completion.chunk', created: 0, model, choices: [], usage });
  res.end('data: [DONE]\n\n');
}

function responses(res: ServerResponse, body: Json, reply: Reply): void {
  const id = nextId('resp');
  const text = reply.kind === 'text' ? reply.text : reply.call.say;
  const items: Json[] = [
    {
      type: 'message',
      id: nextId('msg'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  ];
  if (reply.kind === 'call') {
    const { name, input } = reply.call;
    items.push(
      typeof input === 'string'
        ? { type: 'custom_tool_call', id: nextId('ctc'), call_id: nextId('call'), name, input, status: 'completed' }
        : {
            type: 'function_call',
            id: nextId('fc'),
            call_id: nextId('call'),
            name,
            arguments: JSON.stringify(input),
            status: 'completed',
          },
    );
  }
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 110,
  };
  const response = { id, object: 'response', model: body.model, status: 'completed', output: items, usage };
  if (body.stream === false) {
    writeJson(res, 200, response);
    return;
  }
  startSse(res);
  sse(
    res,
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
    'response.created',
  );
  items.forEach((item, index) => {
    sse(res, { type: 'response.output_item.added', output_index: index, item }, 'response.output_item.added');
    if (item.type === 'message') {
      sse(
        res,
        { type: 'response.output_text.delta', item_id: item.id, output_index: index, content_index: 0, delta: text },
        'response.output_text.delta',
      );
    }
    sse(res, { type: 'response.output_item.done', output_index: index, item }, 'response.output_item.done');
  });
  sse(res, { type: 'response.completed', response }, 'response.completed');
  res.end();
}

function gemini(res: ServerResponse, stream: boolean, reply: Reply): void {
  const parts: Json[] = [{ text: reply.kind === 'text' ? reply.text : reply.call.say }];
  if (reply.kind === 'call') parts.push({ functionCall: { name: reply.call.name, args: reply.call.input } });
  const answer = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: 'fake',
  };
  if (!stream) {
    writeJson(res, 200, answer);
    return;
  }
  startSse(res);
  sse(res, answer);
  res.end();
}

/** Which API a request path belongs to. */
function apiOf(path: string): string | undefined {
  if (path.endsWith('/messages')) return 'anthropic';
  if (path.endsWith('/chat/completions')) return 'chat';
  if (path.endsWith('/responses')) return 'responses';
  if (/:(stream)?generateContent$/i.test(path)) return 'gemini';
  return undefined;
}

export interface FakeApis {
  url: string;
  /** Requests to routes the fake does not serve (model lists, telemetry, token counts), for the report. */
  unrouted: string[];
  close(): Promise<void>;
}

export async function startFakeApis(player: Player): Promise<FakeApis> {
  const unrouted: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);
    const api = req.method === 'POST' ? apiOf(path) : undefined;
    if (api === undefined) {
      unrouted.push(`${req.method ?? '?'} ${path}`);
      if (path.endsWith(':countTokens')) writeJson(res, 200, { totalTokens: Math.floor(raw.length / 3) });
      else if (path.endsWith('/models')) writeJson(res, 200, { object: 'list', data: [], models: [] });
      else writeJson(res, 404, { error: { message: `fake: no route ${path}` } });
      return;
    }
    const body = JSON.parse(raw) as Json;
    const config = (body.generationConfig ?? body.config) as Json | undefined;
    const format = body.response_format as Json | undefined;
    const wantsJson =
      config?.responseMimeType === 'application/json' ||
      format?.type === 'json_schema' ||
      format?.type === 'json_object';
    const reply = player.answer(api, path, raw, declaredTools(api, body), wantsJson);
    if (api === 'anthropic') await anthropic(res, body, reply);
    else if (api === 'chat') chat(res, body, reply);
    else if (api === 'responses') responses(res, body, reply);
    else gemini(res, /stream/i.test(path), reply);
  };
  const server = await listenLoopback('fake-peers', handle, (res, error) =>
    writeJson(res, 500, { error: { message: `fake-peers: ${String(error)}` } }),
  );
  return { url: `http://127.0.0.1:${server.port}`, unrouted, close: () => server.close() };
}

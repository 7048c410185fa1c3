/** How the fake Anthropic server writes answers: SSE streams and JSON bodies shaped like the real API. */
import type { ServerResponse } from 'node:http';
import type { FakeReplyStep, FakeRequestBody, FakeUsage } from './fake-anthropic-steps.js';
import { splitChunks, startSse } from './loopback-http.js';
import { jsonPieces, nativePlan, type NativePlan } from './fake-native.js';

export interface ResolvedReply {
  text: string;
  stopReason: string;
  stopSequence: string | null;
  usage: FakeUsage;
  chunks: number;
  hold?: FakeReplyStep['hold'];
  /** Set when the request offered `tools`: the reply's tool_use blocks follow its text. */
  native?: NativePlan;
  thinking?: FakeReplyStep['thinking'];
  webSearch?: FakeReplyStep['webSearch'];
}

/** Applies the request's stop sequences the way the API does: the text ends before the first match. */
export function resolveReply(step: FakeReplyStep, body: FakeRequestBody): ResolvedReply {
  const native = Array.isArray(body.tools) ? nativePlan(step.text, step.calls) : undefined;
  let text = native ? native.text : step.text;
  let stopReason = step.stopReason ?? (native && native.calls.length > 0 ? 'tool_use' : 'end_turn');
  let stopSequence: string | null = null;
  let cut = -1;
  for (const stop of body.stop_sequences ?? []) {
    const at = text.indexOf(stop);
    if (at >= 0 && (cut < 0 || at < cut)) {
      cut = at;
      stopSequence = stop;
    }
  }
  if (cut >= 0) {
    text = text.slice(0, cut);
    stopReason = 'stop_sequence';
  }
  const usage: FakeUsage = {
    input_tokens: 100,
    output_tokens: Math.max(1, Math.ceil(text.length / 4)),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...step.usage,
  };
  return {
    text,
    stopReason,
    stopSequence,
    usage,
    chunks: step.chunks ?? 3,
    ...(step.hold ? { hold: step.hold } : {}),
    ...(native ? { native } : {}),
    ...(native && step.thinking ? { thinking: step.thinking } : {}),
    ...(native && step.webSearch ? { webSearch: step.webSearch } : {}),
  };
}

export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

let messageCounter = 0;

/** message_start (with the input and cache counters) and the opening of the one text block. */
export function streamPrelude(model: string, usage: FakeUsage): string {
  messageCounter++;
  const message = {
    id: `msg_fake_${messageCounter}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      input_tokens: usage.input_tokens,
      output_tokens: 1,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
    },
  };
  return (
    sseEvent('message_start', { type: 'message_start', message }) +
    sseEvent('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    })
  );
}

export function textDelta(text: string): string {
  return sseEvent('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text },
  });
}

/** Writes a full stream: each event in its own write so the client sees separate deltas. */
export async function writeStream(res: ServerResponse, model: string, reply: ResolvedReply): Promise<void> {
  startSse(res);
  res.write(streamPrelude(model, reply.usage));
  if (reply.thinking) {
    const index = 100;
    const start = { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } };
    res.write(sseEvent('content_block_start', start));
    for (const piece of splitChunks(reply.thinking.text, 2)) {
      const delta = { type: 'thinking_delta', thinking: piece };
      res.write(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta }));
    }
    const signature = { type: 'signature_delta', signature: reply.thinking.signature };
    res.write(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta: signature }));
    res.write(sseEvent('content_block_stop', { type: 'content_block_stop', index }));
  }
  if (reply.webSearch) writeWebSearch(res, reply.webSearch);
  let sent = 0;
  let held = false;
  for (const piece of splitChunks(reply.text, reply.chunks)) {
    if (reply.hold && !held && sent >= reply.hold.afterChars) {
      held = true;
      await reply.hold.release;
    }
    sent += piece.length;
    res.write(textDelta(piece));
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (const cited of reply.webSearch?.cited ?? []) {
    const citation = {
      type: 'web_search_result_location',
      url: cited.url,
      title: cited.title,
      cited_text: cited.text,
      encrypted_index: 'enc',
    };
    const delta = { type: 'citations_delta', citation };
    res.write(sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta }));
  }
  res.write(sseEvent('content_block_stop', { type: 'content_block_stop', index: 0 }));
  for (const [offset, call] of (reply.native?.calls ?? []).entries()) {
    const index = offset + 1;
    const block = { type: 'tool_use', id: call.id, name: call.name, input: {} };
    res.write(sseEvent('content_block_start', { type: 'content_block_start', index, content_block: block }));
    for (const partial of jsonPieces(call.input)) {
      const delta = { type: 'input_json_delta', partial_json: partial };
      res.write(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.write(sseEvent('content_block_stop', { type: 'content_block_stop', index }));
  }
  res.write(sseEvent('ping', { type: 'ping' }));
  res.write(
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: reply.stopReason, stop_sequence: reply.stopSequence },
      usage: { output_tokens: reply.usage.output_tokens },
    }),
  );
  res.end(sseEvent('message_stop', { type: 'message_stop' }));
}

let searchCounter = 0;

/** The server tool's two blocks, as the API streams them (the result block arrives whole in its start event). */
function writeWebSearch(res: ServerResponse, search: NonNullable<FakeReplyStep['webSearch']>): void {
  const id = `srvtoolu_fake_${++searchCounter}`;
  const use = { type: 'server_tool_use', id, name: 'web_search', input: {} };
  res.write(sseEvent('content_block_start', { type: 'content_block_start', index: 50, content_block: use }));
  for (const partial of jsonPieces({ query: search.query })) {
    const delta = { type: 'input_json_delta', partial_json: partial };
    res.write(sseEvent('content_block_delta', { type: 'content_block_delta', index: 50, delta }));
  }
  res.write(sseEvent('content_block_stop', { type: 'content_block_stop', index: 50 }));
  const content =
    search.error !== undefined
      ? { type: 'web_search_tool_result_error', error_code: search.error }
      : search.results.map((result) => ({
          type: 'web_search_result',
          encrypted_content: 'enc',
          page_age: null,
          ...result,
        }));
  const block = { type: 'web_search_tool_result', tool_use_id: id, content };
  res.write(sseEvent('content_block_start', { type: 'content_block_start', index: 51, content_block: block }));
  res.write(sseEvent('content_block_stop', { type: 'content_block_stop', index: 51 }));
}

export function messageJson(model: string, reply: ResolvedReply): unknown {
  messageCounter++;
  return {
    id: `msg_fake_${messageCounter}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [
      { type: 'text', text: reply.text },
      ...(reply.native?.calls ?? []).map((call) => ({ type: 'tool_use', ...call })),
    ],
    stop_reason: reply.stopReason,
    stop_sequence: reply.stopSequence,
    usage: reply.usage,
  };
}

export function errorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

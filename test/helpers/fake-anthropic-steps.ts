/** Script vocabulary of the loopback fake Anthropic server (see fake-anthropic-server.ts). */
import type { FakeToolUse } from './fake-native.js';

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** A successful answer; streamed as SSE when the request asks for `stream: true`, else one JSON body. */
export interface FakeReplyStep {
  text: string;
  /** Native tool use (a request with `tools`): the tool_use blocks after the text; see fake-native.ts. */
  calls?: FakeToolUse[];
  /**
   * Native tool use: a search the API's web_search server tool ran during the reply, streamed as a
   * `server_tool_use` block (the query), a `web_search_tool_result` block (the results, or `error` as the API's
   * error object) and `citations_delta`s on the text for `cited`.
   */
  webSearch?: {
    query: string;
    /** `encrypted_content` defaults to "enc" (a test may make it huge). */
    results: Array<{ title: string; url: string; encrypted_content?: string }>;
    error?: string;
    cited?: Array<{ title: string; url: string; text: string }>;
  };
  /** Native tool use: an extended-thinking block (text and signature) before the text. */
  thinking?: { text: string; signature: string };
  /** Defaults: input 100, output ≈ text length / 4, both cache counters 0. */
  usage?: Partial<FakeUsage>;
  /** Default 'end_turn'; a request stop sequence found in the text overrides it with 'stop_sequence'. */
  stopReason?: string;
  /** Number of text_delta events (default 3, at most one per character). */
  chunks?: number;
  /**
   * Streaming only: after the deltas that carry the first `afterChars` characters, wait for `release` before
   * sending the rest (tests see what a client shows mid-answer).
   */
  hold?: { afterChars: number; release: Promise<void> };
}

/** An HTTP error response with the API's error body shape. */
export interface FakeHttpErrorStep {
  status: number;
  /** API error type, e.g. 'overloaded_error'; derived from the status when omitted. */
  errorType?: string;
  message?: string;
  headers?: Record<string, string>;
}

/**
 * A stall. `true`: accept the request and never answer. 'headers': send 200 SSE headers, then nothing.
 * 'text': send message_start and `text` (default "partial") as deltas, then nothing.
 */
export interface FakeHangStep {
  hang: true | 'headers' | 'text';
  text?: string;
}

/** Sends message_start and `text` (default "partial") as deltas, then destroys the socket. */
export interface FakeDisconnectStep {
  disconnect: true;
  text?: string;
}

/** A 200 stream that sends `text` (may be empty) and then an SSE `error` event, as the API does when overloaded mid-stream. */
export interface FakeStreamErrorStep {
  streamError: { type: string; message: string };
  text?: string;
}

export interface FakeRequestBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  system?: Array<{ type: string; text: string; cache_control?: { type: string } }> | string;
  messages?: Array<{
    role: string;
    content:
      | string
      | Array<{
          type: string;
          text: string;
          cache_control?: { type: string };
          id?: string;
          name?: string;
          input?: unknown;
          tool_use_id?: string;
          content?: unknown;
          is_error?: boolean;
        }>;
  }>;
  stop_sequences?: string[];
  temperature?: number;
  [key: string]: unknown;
}

export type FakePlainStep = FakeReplyStep | FakeHttpErrorStep | FakeHangStep | FakeDisconnectStep | FakeStreamErrorStep;

/** A function step answers from the request, e.g. summary requests differently from agent steps. */
export type FakeStep = FakePlainStep | ((body: FakeRequestBody, index: number) => FakePlainStep);

export function isHttpError(step: FakePlainStep): step is FakeHttpErrorStep {
  return 'status' in step;
}
export function isHang(step: FakePlainStep): step is FakeHangStep {
  return 'hang' in step;
}
export function isDisconnect(step: FakePlainStep): step is FakeDisconnectStep {
  return 'disconnect' in step;
}
export function isStreamError(step: FakePlainStep): step is FakeStreamErrorStep {
  return 'streamError' in step;
}

/** All user text of the request, blocks joined with "\n" (a native tool_result counts by its content). */
export function userText(body: FakeRequestBody): string {
  return (body.messages ?? [])
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content
            .map((block) => block.text ?? (typeof block.content === 'string' ? block.content : ''))
            .join('\n'),
    )
    .join('\n');
}

/** All system text of the request, blocks joined with "\n". */
export function systemText(body: FakeRequestBody): string {
  if (body.system === undefined) return '';
  return typeof body.system === 'string' ? body.system : body.system.map((block) => block.text).join('\n');
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function errorTypeFor(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

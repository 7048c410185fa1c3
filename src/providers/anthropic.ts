/**
 * The Anthropic Messages API behind mca's ModelProvider contract: streaming text, all four usage
 * counters, prompt-cache breakpoints, and our own retry loop so every retry is visible to the agent as a `retry`
 * StreamEvent. The request goes out through our node:http transport, not the SDK: the SDK's request building
 * loads Node's fetch stack (undici), which costs start-up time, memory and a wait at exit. The SDK stays the
 * source of truth for the wire shapes (`import type` only) and for the headers (test/providers/anthropic-wire).
 */
import type { ContentBlockParam, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages.js';
import { errorFromEvent, errorFromResponse, toProviderError } from './anthropic-errors.js';
import { toMessageParams } from './anthropic-request.js';
import { ContentBlockAssembler, MAX_SOURCES, sourcesText, type CitedSource } from './content-blocks.js';
import { NodeHttpTransport, type HttpResponse, type HttpTransport } from './http-transport.js';
import { DEFAULT_MODEL_CALL_TIMEOUT_MS, withDeadline } from './call-deadline.js';
import { IdleWatch } from './idle-watch.js';
import type { JsonBodyEncoder } from './json-body.js';
import { nonStreamResponse, ProviderError } from './provider-error.js';
import { withRetries } from './retry-loop.js';
import {
  DEFAULT_BACKOFF,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  type BackoffOptions,
  type ProviderConnectionOptions,
} from './retry-policy.js';
import { sseData } from './sse-data.js';
import {
  continuation,
  MAX_PAUSE_CONTINUATIONS,
  MAX_PAUSED_CONTENT_CHARS,
  PausedContent,
  pauseLimitText,
} from './paused-turn.js';
import {
  addUsage,
  totalUsageTokens,
  ZERO_USAGE,
  type ModelProvider,
  type ModelRequest,
  type StopReason,
  type StreamEvent,
  type Usage,
} from './types.js';

/** The API version @anthropic-ai/sdk 1.12 sends; test/providers/anthropic-wire.test.ts keeps the two in step. */
export const ANTHROPIC_API_VERSION = '2026-10-21';

const API_NAME = 'The Anthropic API';

/** How one request of a call ended: the pages its text cited, and its content when the API paused the turn. */
interface PartEnd {
  sources: CitedSource[];
  paused?: { content: ContentBlockParam[]; overflowed: boolean };
}

/** What the stream carries besides the SDK's message events. */
type StreamPayload = RawMessageStreamEvent | { type: 'ping' } | { type: 'error' };

export type AnthropicProviderOptions = Omit<ProviderConnectionOptions, 'apiKey'> & {
  /** ANTHROPIC_API_KEY, sent as `x-api-key` (the header the Anthropic API documents; Claude Code sends it so). */
  apiKey?: string | undefined;
  /** ANTHROPIC_AUTH_TOKEN, sent as `Authorization: Bearer` (gateways; Claude Code sends it so). */
  authToken?: string | undefined;
};

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  end_turn: 'end_turn',
  stop_sequence: 'stop_sequence',
  max_tokens: 'max_tokens',
  tool_use: 'tool_use',
  // The output was cut because the context window filled up: to the agent that is a truncation.
  model_context_window_exceeded: 'max_tokens',
  refusal: 'refusal',
};

function toStopReason(reason: string | null | undefined): StopReason {
  return (reason ? STOP_REASONS[reason] : undefined) ?? 'other';
}

/** Whether an event carried something new: not a keep-alive `ping` (or an unknown type), not an empty delta. */
const PROGRESS_EVENTS: ReadonlySet<string> = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_stop',
]);

function madeProgress(event: StreamPayload): boolean {
  if (event.type !== 'content_block_delta') return PROGRESS_EVENTS.has(event.type);
  const delta = event.delta as unknown as Record<string, unknown>;
  return Object.entries(delta).some(([key, value]) => key !== 'type' && typeof value === 'string' && value !== '');
}

export class AnthropicProvider implements ModelProvider {
  readonly name = 'anthropic';
  readonly serverWebSearch = true;
  private readonly apiKey: string | undefined;
  private readonly authToken: string | undefined;
  /** Both credentials, for redaction. */
  private readonly secrets: string[];
  private readonly maxRetries: number;
  private readonly idleTimeoutMs: number;
  private readonly callTimeoutMs: number;
  private readonly backoff: BackoffOptions;
  private readonly endpoint: string;
  private readonly url: URL;
  private readonly transport: HttpTransport;
  /** Encodes request bodies, reusing the encoded long strings the previous request carried (json-body.ts). */
  private encoder: JsonBodyEncoder | undefined;
  private calls = 0;

  constructor(options: AnthropicProviderOptions) {
    this.endpoint = (options.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '');
    this.url = new URL(`${this.endpoint}/v1/messages`);
    this.apiKey = options.apiKey;
    this.authToken = options.authToken;
    this.secrets = [options.apiKey, options.authToken].filter((key): key is string => Boolean(key));
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.idleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_MODEL_CALL_TIMEOUT_MS;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.transport = new NodeHttpTransport(options.env ?? {});
  }

  /**
   * One model call. A turn the API pauses (`pause_turn`, server tools) is continued here, as the API documents:
   * the same request again with the paused content as the last assistant message, at most
   * MAX_PAUSE_CONTINUATIONS times and while that content stays under MAX_PAUSED_CONTENT_CHARS; then the reply
   * ends with a line saying so. To the agent it is one reply: the parts' text and calls in order, the cited
   * pages as one Sources list at the end, and the usage of every request added up (each one is billed), with the
   * last request's size as `windowTokens` (every request resent the same prompt: the sum is not the context size).
   */
  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const params = toMessageParams(request);
    const encode = await this.bodyEncoder();
    const paused: ContentBlockParam[] = [];
    const sources = new Map<string, string>();
    let usage: Usage = { ...ZERO_USAGE };
    for (let part = 0; ; part++) {
      const payload = continuation(params, paused, encode);
      let end: PartEnd | undefined;
      let done: Extract<StreamEvent, { type: 'done' }> | undefined;
      const call = withDeadline(signal, this.callTimeoutMs, API_NAME, (callSignal) =>
        withRetries(
          () =>
            this.attempt(payload, callSignal, (ended) => {
              end = ended;
            }),
          callSignal,
          {
            maxRetries: this.maxRetries,
            backoff: this.backoff,
            toError: (error) => toProviderError(error, this.secrets, this.endpoint),
          },
        ),
      );
      for await (const event of call) {
        if (event.type === 'done') done = event;
        // A retry tells the agent to drop the reply so far; within a continuation the paused parts stand.
        else if (event.type !== 'retry' || part === 0) yield event;
      }
      if (done === undefined) return;
      usage = { ...addUsage(usage, done.usage), ...(part > 0 ? { windowTokens: totalUsageTokens(done.usage) } : {}) };
      for (const source of end?.sources ?? []) {
        if (!sources.has(source.url) && sources.size < MAX_SOURCES) sources.set(source.url, source.title);
      }
      const cited = () => sourcesText([...sources].map(([url, title]) => ({ url, title })));
      if (end?.paused === undefined) {
        const text = cited();
        if (text !== '') yield { type: 'text', text };
        yield { type: 'done', stopReason: done.stopReason, usage };
        return;
      }
      paused.push(...end.paused.content);
      const limit =
        part >= MAX_PAUSE_CONTINUATIONS
          ? 'count'
          : end.paused.overflowed || JSON.stringify(paused).length > MAX_PAUSED_CONTENT_CHARS
            ? 'size'
            : undefined;
      if (limit !== undefined) {
        yield { type: 'text', text: `${pauseLimitText(limit)}${cited()}` };
        yield { type: 'done', stopReason: 'other', usage };
        return;
      }
    }
  }

  /**
   * How this call's bodies are encoded. A one-shot answer makes one call, with nothing an encoder could reuse: the
   * encoder is loaded with the second call (off the plain `-p` path), and reuses from the third.
   */
  private async bodyEncoder(): Promise<(body: unknown) => Buffer> {
    this.calls += 1;
    if (this.encoder === undefined && this.calls > 1)
      this.encoder = new (await import('./json-body.js')).JsonBodyEncoder();
    const encoder = this.encoder;
    return encoder ? (body) => encoder.encode(body) : (body) => Buffer.from(JSON.stringify(body), 'utf8');
  }

  /**
   * The headers the API reads: the version, and each credential as Claude Code sends it: the API key as
   * `x-api-key`, a token (ANTHROPIC_AUTH_TOKEN) as `Authorization: Bearer`; both when both are set.
   */
  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'anthropic-version': ANTHROPIC_API_VERSION,
      ...(this.apiKey ? { 'x-api-key': this.apiKey } : {}),
      ...(this.authToken ? { authorization: `Bearer ${this.authToken}` } : {}),
      'user-agent': 'mca',
    };
  }

  /** Sends the request; resolves with a 200 event stream, throws a ProviderError for anything else. */
  private async open(payload: Buffer, watch: IdleWatch): Promise<HttpResponse> {
    const secrets = this.secrets;
    const response = await this.transport.post({
      url: this.url,
      headers: this.headers(),
      body: payload,
      signal: watch.signal,
    });
    if (response.status < 200 || response.status >= 300) {
      const text = await response.text();
      throw errorFromResponse(response.status, response.headers, text, secrets);
    }
    const notApi = nonStreamResponse(API_NAME, this.endpoint, response.headers.get('content-type'));
    if (notApi) {
      response.discard();
      throw notApi;
    }
    return response;
  }

  /** One HTTP call. Throws on any failure; an idle stall becomes a 'timeout' ProviderError. */
  private async *attempt(
    payload: Buffer,
    signal: AbortSignal,
    ended: (end: PartEnd) => void,
  ): AsyncGenerator<StreamEvent> {
    const watch = new IdleWatch(
      signal,
      this.idleTimeoutMs,
      (seconds) => `The Anthropic API sent nothing for ${seconds}s; the stream was abandoned.`,
    );
    try {
      watch.arm();
      let response: HttpResponse;
      try {
        response = await this.open(payload, watch);
      } catch (error) {
        watch.check();
        throw error;
      }
      const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
      let stopReason: StopReason = 'other';
      let rawStop: string | null | undefined;
      let stopped = false;
      const blocks = new ContentBlockAssembler();
      const recorded = new PausedContent();
      try {
        for await (const data of sseData(response.body)) {
          watch.pause();
          const event = this.parse(data, response);
          if (event.type === 'message_start') {
            const start = event.message.usage;
            usage.inputTokens = start.input_tokens;
            usage.outputTokens = start.output_tokens;
            usage.cacheCreationInputTokens = start.cache_creation_input_tokens ?? 0;
            usage.cacheReadInputTokens = start.cache_read_input_tokens ?? 0;
          } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
            recorded.delta(event.index, event.delta);
            if (event.delta.text.length > 0) yield { type: 'text', text: event.delta.text };
          } else if (event.type === 'content_block_start') {
            recorded.start(event.index, event.content_block);
            const search = blocks.start(event.index, event.content_block);
            if (search !== undefined) yield search;
          } else if (event.type === 'content_block_delta') {
            recorded.delta(event.index, event.delta);
            const shown = blocks.delta(event.index, event.delta);
            if (shown !== undefined) yield shown;
          } else if (event.type === 'content_block_stop') {
            const done = blocks.stop(event.index);
            if (done !== undefined) yield done;
          } else if (event.type === 'message_delta') {
            rawStop = event.delta.stop_reason;
            stopReason = toStopReason(rawStop);
            const delta = event.usage;
            usage.outputTokens = delta.output_tokens;
            if (delta.input_tokens !== null && delta.input_tokens !== undefined) usage.inputTokens = delta.input_tokens;
            if (delta.cache_creation_input_tokens !== null && delta.cache_creation_input_tokens !== undefined) {
              usage.cacheCreationInputTokens = delta.cache_creation_input_tokens;
            }
            if (delta.cache_read_input_tokens !== null && delta.cache_read_input_tokens !== undefined) {
              usage.cacheReadInputTokens = delta.cache_read_input_tokens;
            }
          } else if (event.type === 'message_stop') {
            stopped = true;
            // The cited pages go to stream(), which closes the whole reply with them (the history keeps text).
            ended({
              sources: blocks.sources(),
              ...(rawStop === 'pause_turn'
                ? { paused: { content: recorded.content(), overflowed: recorded.overflowed } }
                : {}),
            });
          }
          // Only new content restarts the idle countdown; a ping or an empty delta only lets it run on.
          if (madeProgress(event)) watch.arm();
          else watch.resume();
        }
      } catch (error) {
        watch.check();
        throw error;
      }
      watch.check();
      if (!stopped) {
        throw new ProviderError('network', 'The Anthropic API stream ended before the response was complete.');
      }
      watch.pause();
      yield { type: 'done', stopReason, usage };
    } finally {
      // Releases the connection if the consumer stopped early or the attempt failed.
      watch.dispose();
    }
  }

  /** One SSE payload as an event; an `error` event becomes the ProviderError it reports. */
  private parse(data: string, response: HttpResponse): StreamPayload {
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      throw new ProviderError('server', `The Anthropic API at ${this.endpoint} sent a malformed event.`);
    }
    if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') {
      throw new ProviderError('server', `The Anthropic API at ${this.endpoint} sent a malformed event.`);
    }
    if ((event as { type: string }).type === 'error') throw errorFromEvent(data, response.headers, this.secrets);
    return event as StreamPayload;
  }
}

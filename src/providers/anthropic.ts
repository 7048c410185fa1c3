/**
 * The Anthropic Messages API behind mca's ModelProvider contract: streaming text, all four usage
 * counters, prompt-cache breakpoints, and our own retry loop (the SDK's is off) so every retry is
 * visible to the agent as a `retry` StreamEvent.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages.js';
import { toProviderError } from './anthropic-errors.js';
import { toMessageParams, type AnthropicStreamParams } from './anthropic-request.js';
import { IdleWatch } from './idle-watch.js';
import { nonStreamResponse, ProviderError } from './provider-error.js';
import { withRetries } from './retry-loop.js';
import {
  DEFAULT_BACKOFF,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  type BackoffOptions,
  type ProviderConnectionOptions,
} from './retry-policy.js';
import { ContentBlockAssembler } from './content-blocks.js';
import type { ModelProvider, ModelRequest, StopReason, StreamEvent, Usage } from './types.js';

export type AnthropicProviderOptions = ProviderConnectionOptions;

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

export class AnthropicProvider implements ModelProvider {
  readonly name = 'anthropic';
  private readonly client: Anthropic;
  private readonly apiKey: string;
  private readonly maxRetries: number;
  private readonly idleTimeoutMs: number;
  private readonly backoff: BackoffOptions;
  private readonly endpoint: string;

  constructor(options: AnthropicProviderOptions) {
    this.endpoint = options.baseUrl ?? 'https://api.anthropic.com';
    this.apiKey = options.apiKey;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.idleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.client = new Anthropic({
      apiKey: options.apiKey,
      // Passed explicitly (even when undefined → the public endpoint) so config decides, not the SDK's env lookup.
      baseURL: this.endpoint,
      maxRetries: 0,
      // The SDK logs to the console by default; core code never writes to the terminal.
      logLevel: 'off',
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const params = toMessageParams(request);
    yield* withRetries(() => this.attempt(params, signal), signal, {
      maxRetries: this.maxRetries,
      backoff: this.backoff,
      toError: (error) => toProviderError(error, [this.apiKey]),
    });
  }

  /** One HTTP call. Throws on any failure; an idle stall becomes a 'timeout' ProviderError. */
  private async *attempt(params: AnthropicStreamParams, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    // The SDK ends iteration silently when its signal aborts, so why we aborted is checked via watch.check().
    const watch = new IdleWatch(
      signal,
      this.idleTimeoutMs,
      (seconds) => `The Anthropic API sent nothing for ${seconds}s; the stream was abandoned.`,
    );
    try {
      watch.arm();
      let events: AsyncIterable<RawMessageStreamEvent>;
      try {
        const { data, response } = await this.client.messages.create(params, { signal: watch.signal }).withResponse();
        const notApi = nonStreamResponse('The Anthropic API', this.endpoint, response.headers.get('content-type'));
        if (notApi) {
          await response.body?.cancel().catch(() => undefined);
          throw notApi;
        }
        events = data;
      } catch (error) {
        watch.check();
        throw error;
      }
      const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
      let stopReason: StopReason = 'other';
      let stopped = false;
      const blocks = new ContentBlockAssembler();
      try {
        for await (const event of events) {
          watch.pause();
          if (event.type === 'message_start') {
            const start = event.message.usage;
            usage.inputTokens = start.input_tokens;
            usage.outputTokens = start.output_tokens;
            usage.cacheCreationInputTokens = start.cache_creation_input_tokens ?? 0;
            usage.cacheReadInputTokens = start.cache_read_input_tokens ?? 0;
          } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
            if (event.delta.text.length > 0) yield { type: 'text', text: event.delta.text };
          } else if (event.type === 'content_block_start') {
            blocks.start(event.index, event.content_block);
          } else if (event.type === 'content_block_delta') {
            const shown = blocks.delta(event.index, event.delta);
            if (shown !== undefined) yield shown;
          } else if (event.type === 'content_block_stop') {
            const done = blocks.stop(event.index);
            if (done !== undefined) yield done;
          } else if (event.type === 'message_delta') {
            stopReason = toStopReason(event.delta.stop_reason);
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
          }
          watch.arm();
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
}

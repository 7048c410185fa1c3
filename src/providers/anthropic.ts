/**
 * The Anthropic Messages API behind mca's ModelProvider contract: streaming text, all four usage
 * counters, prompt-cache breakpoints, and our own retry loop (the SDK's is off) so every retry is
 * visible to the agent as a `retry` StreamEvent.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages.js';
import { toProviderError } from './anthropic-errors.js';
import { toMessageParams, type AnthropicStreamParams } from './anthropic-request.js';
import { ProviderError } from './provider-error.js';
import { DEFAULT_BACKOFF, isRetryWorthy, retryDelayMs, sleep, type BackoffOptions } from './retry-policy.js';
import type { ModelProvider, ModelRequest, StopReason, StreamEvent, Usage } from './types.js';

export interface AnthropicProviderOptions {
  apiKey: string;
  baseUrl?: string;
  /** Retries after the first attempt (ours, not the SDK's). Default 4. */
  maxRetries?: number;
  /** No SSE event (or no response) for this long aborts the attempt with kind 'timeout'. Default 90 s. */
  streamIdleTimeoutMs?: number;
  fetch?: typeof fetch;
  /** Backoff tuning; tests inject a tiny base delay. */
  backoff?: Partial<BackoffOptions>;
}

const DEFAULT_MAX_RETRIES = 4;
const DEFAULT_IDLE_TIMEOUT_MS = 90_000;

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  end_turn: 'end_turn',
  stop_sequence: 'stop_sequence',
  max_tokens: 'max_tokens',
  // The output was cut because the context window filled up: to the agent that is a truncation.
  model_context_window_exceeded: 'max_tokens',
  refusal: 'refusal',
};

function toStopReason(reason: string | null | undefined): StopReason {
  return (reason ? STOP_REASONS[reason] : undefined) ?? 'other';
}

/** Per-attempt bookkeeping the retry loop reads after a failure. */
interface AttemptState {
  yieldedText: boolean;
}

export class AnthropicProvider implements ModelProvider {
  readonly name = 'anthropic';
  private readonly client: Anthropic;
  private readonly apiKey: string;
  private readonly maxRetries: number;
  private readonly idleTimeoutMs: number;
  private readonly backoff: BackoffOptions;

  constructor(options: AnthropicProviderOptions) {
    this.apiKey = options.apiKey;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.idleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.client = new Anthropic({
      apiKey: options.apiKey,
      // Passed explicitly (even when undefined → the public endpoint) so config decides, not the SDK's env lookup.
      baseURL: options.baseUrl ?? 'https://api.anthropic.com',
      maxRetries: 0,
      // The SDK logs to the console by default; core code never writes to the terminal.
      logLevel: 'off',
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const params = toMessageParams(request);
    for (let retry = 0; ; retry++) {
      if (signal.aborted) throw this.aborted();
      const state: AttemptState = { yieldedText: false };
      try {
        yield* this.attempt(params, signal, state);
        return;
      } catch (error) {
        const failure = signal.aborted ? this.aborted() : toProviderError(error, [this.apiKey]);
        // Once text reached the caller a retry would duplicate it; the agent decides what to do.
        if (state.yieldedText || retry >= this.maxRetries || !isRetryWorthy(failure)) throw failure;
        const delayMs = retryDelayMs(retry + 1, failure, this.backoff);
        yield { type: 'retry', attempt: retry + 1, delayMs, reason: failure.message };
        await sleep(delayMs, signal);
      }
    }
  }

  private aborted(): ProviderError {
    return new ProviderError('aborted', 'The request was cancelled.');
  }

  /** One HTTP call. Throws on any failure; an idle stall becomes a 'timeout' ProviderError. */
  private async *attempt(
    params: AnthropicStreamParams,
    signal: AbortSignal,
    state: AttemptState,
  ): AsyncGenerator<StreamEvent> {
    const controller = new AbortController();
    const onOuterAbort = (): void => controller.abort();
    signal.addEventListener('abort', onOuterAbort, { once: true });
    let idleFired = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        idleFired = true;
        controller.abort();
      }, this.idleTimeoutMs);
    };
    const pause = (): void => clearTimeout(timer);
    // The SDK ends iteration silently when its signal aborts, so why we aborted is checked here.
    const checkAborted = (): void => {
      if (signal.aborted) throw this.aborted();
      if (idleFired) {
        const seconds = Math.round(this.idleTimeoutMs / 100) / 10;
        throw new ProviderError('timeout', `The Anthropic API sent nothing for ${seconds}s; the stream was abandoned.`);
      }
    };

    try {
      arm();
      let events: AsyncIterable<RawMessageStreamEvent>;
      try {
        events = await this.client.messages.create(params, { signal: controller.signal });
      } catch (error) {
        checkAborted();
        throw error;
      }
      const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
      let stopReason: StopReason = 'other';
      let stopped = false;
      try {
        for await (const event of events) {
          pause();
          if (event.type === 'message_start') {
            const start = event.message.usage;
            usage.inputTokens = start.input_tokens;
            usage.outputTokens = start.output_tokens;
            usage.cacheCreationInputTokens = start.cache_creation_input_tokens ?? 0;
            usage.cacheReadInputTokens = start.cache_read_input_tokens ?? 0;
          } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
            if (event.delta.text.length > 0) {
              state.yieldedText = true;
              yield { type: 'text', text: event.delta.text };
            }
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
          arm();
        }
      } catch (error) {
        checkAborted();
        throw error;
      }
      checkAborted();
      if (!stopped) {
        throw new ProviderError('network', 'The Anthropic API stream ended before the response was complete.');
      }
      pause();
      yield { type: 'done', stopReason, usage };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onOuterAbort);
      // Releases the connection if the consumer stopped early or the attempt failed.
      controller.abort();
    }
  }
}

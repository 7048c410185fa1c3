/**
 * Any OpenAI-compatible chat completions API (OpenAI, OpenRouter, Ollama, vLLM, LM Studio …) behind mca's
 * ModelProvider contract, on our node:http transport (http-transport.ts). Retries, backoff, retry-after, the idle timeout and key
 * scrubbing are the ones the Anthropic provider uses (retry-loop.ts, idle-watch.ts, error-text.ts).
 */
import { NodeHttpTransport, type HttpResponse, type HttpTransport } from './http-transport.js';
import { DEFAULT_MODEL_CALL_TIMEOUT_MS, withDeadline } from './call-deadline.js';
import { IdleWatch } from './idle-watch.js';
import { parseChunk, toStopReason, type ParsedChunk } from './openai-chunk.js';
import {
  displayEndpoint,
  errorFromChunk,
  errorFromResponse,
  toOpenAIProviderError,
  unreachableError,
} from './openai-errors.js';
import { promptChars as promptCharsOf, toChatCompletionBody } from './openai-request.js';
import { ToolCallAssembler } from './openai-tool-calls.js';
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
import type { ModelProvider, ModelRequest, StreamEvent, Usage } from './types.js';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export type OpenAICompatibleProviderOptions = ProviderConnectionOptions;

/** Used only when a server ignores `stream_options.include_usage`: the budget needs some count. */
const CHARS_PER_TOKEN_ESTIMATE = 3;

function estimatedUsage(promptChars: number, outputChars: number): Usage {
  return {
    inputTokens: Math.ceil(promptChars / CHARS_PER_TOKEN_ESTIMATE),
    outputTokens: Math.ceil(outputChars / CHARS_PER_TOKEN_ESTIMATE),
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
  };
}

export class OpenAICompatibleProvider implements ModelProvider {
  readonly name = 'openai';
  private readonly apiKey: string;
  private readonly url: URL;
  private readonly endpoint: string;
  private readonly maxRetries: number;
  private readonly idleTimeoutMs: number;
  private readonly callTimeoutMs: number;
  private readonly backoff: BackoffOptions;
  private readonly transport: HttpTransport;

  constructor(options: OpenAICompatibleProviderOptions) {
    this.apiKey = options.apiKey;
    const base = (options.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
    this.url = new URL(`${base}/chat/completions`);
    this.endpoint = displayEndpoint(new URL(base));
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.idleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_MODEL_CALL_TIMEOUT_MS;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.transport = new NodeHttpTransport(options.env ?? {});
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const body = toChatCompletionBody(request);
    const promptChars = promptCharsOf(body);
    const payload = JSON.stringify(body);
    yield* withDeadline(signal, this.callTimeoutMs, `The OpenAI-compatible API at ${this.endpoint}`, (callSignal) =>
      withRetries(() => this.attempt(payload, promptChars, callSignal), callSignal, {
        maxRetries: this.maxRetries,
        backoff: this.backoff,
        toError: (error) => toOpenAIProviderError(error, [this.apiKey]),
      }),
    );
  }

  /** One HTTP call. Throws on any failure; an idle stall becomes a 'timeout' ProviderError. */
  private async *attempt(payload: string, promptChars: number, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const secrets = [this.apiKey];
    const watch = new IdleWatch(
      signal,
      this.idleTimeoutMs,
      (seconds) =>
        `The OpenAI-compatible API at ${this.endpoint} sent nothing for ${seconds}s; the stream was abandoned.`,
    );
    try {
      watch.arm();
      let response: HttpResponse;
      try {
        response = await this.transport.post({
          url: this.url,
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            authorization: `Bearer ${this.apiKey}`,
            'user-agent': 'mca',
          },
          body: payload,
          signal: watch.signal,
        });
      } catch (error) {
        watch.check();
        throw unreachableError(error, this.endpoint, secrets);
      }
      if (response.status < 200 || response.status >= 300) {
        let text = '';
        try {
          text = await response.text();
        } catch (error) {
          watch.check();
          throw error;
        }
        throw errorFromResponse(response.status, response.headers, text, secrets);
      }
      const notApi = nonStreamResponse(
        'The OpenAI-compatible API',
        this.endpoint,
        response.headers.get('content-type'),
      );
      if (notApi) {
        response.discard();
        throw notApi;
      }

      let usage: Usage | undefined;
      let finishReason: string | undefined;
      let outputChars = 0;
      let complete = false;
      const calls = new ToolCallAssembler();
      try {
        for await (const data of sseData(response.body)) {
          watch.pause();
          if (data.trim() === '[DONE]') {
            complete = true;
            break;
          }
          let chunk: ParsedChunk;
          try {
            chunk = parseChunk(data);
          } catch {
            throw new ProviderError('server', `The OpenAI-compatible API at ${this.endpoint} sent a malformed chunk.`);
          }
          if (chunk.error !== undefined) throw errorFromChunk(chunk.error, secrets);
          if (chunk.text.length > 0) {
            outputChars += chunk.text.length;
            yield { type: 'text', text: chunk.text };
          }
          calls.add(chunk.toolCalls);
          if (chunk.finishReason !== undefined) finishReason = chunk.finishReason;
          if (chunk.usage !== undefined) usage = chunk.usage;
          // Only new content restarts the idle countdown; an empty chunk only lets it run on.
          const progressed =
            chunk.text.length > 0 ||
            chunk.toolCalls.length > 0 ||
            chunk.finishReason !== undefined ||
            chunk.usage !== undefined;
          if (progressed) watch.arm();
          else watch.resume();
        }
      } catch (error) {
        watch.check();
        throw error;
      }
      watch.check();
      // Without [DONE] a stream that closed cleanly after its finish_reason is still whole (some servers omit it).
      if (!complete && finishReason === undefined) {
        throw new ProviderError('network', 'The OpenAI-compatible API stream ended before the response was complete.');
      }
      watch.pause();
      for (const call of calls.finish()) {
        outputChars += JSON.stringify(call.input).length;
        yield { type: 'tool_call', call };
      }
      yield {
        type: 'done',
        stopReason: toStopReason(finishReason),
        usage: usage ?? estimatedUsage(promptChars, outputChars),
      };
    } finally {
      // Releases the connection if the consumer stopped early or the attempt failed.
      watch.dispose();
    }
  }
}

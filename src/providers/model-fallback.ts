/**
 * Claude Code's fallback model (`--fallback-model`, settings `fallbackModel`): a call for the main model that still
 * fails after the provider's own retries because the model is overloaded (529 / `overloaded_error`) or not
 * available (404, `not_found_error`) is sent once more, unchanged but for its model, to the next model of the chain.
 * The switch is announced by a `model_fallback` event before the new attempt; the session driver then keeps the
 * session on that model, so this wrapper holds no state. Only calls for a model of the chain (the main model and
 * its fallbacks) move: a subagent's or a summary's own model is the user's explicit choice.
 * A failure after the reply began (text already shown) is never retried elsewhere: it would duplicate the text.
 */
import { isProviderError, type ProviderError } from './provider-error.js';
import type { ModelProvider, ModelRequest, StreamEvent } from './types.js';

/** Whether a failure means "this model cannot answer now" rather than "this request cannot be answered". */
export function isModelUnavailable(error: ProviderError): boolean {
  if (error.kind === 'overloaded') return true;
  return error.kind === 'bad_request' && error.status === 404;
}

export class FallbackProvider implements ModelProvider {
  readonly name: string;
  readonly serverWebSearch?: boolean;
  /** The main model, then its fallbacks, in the order tried. */
  private readonly chain: readonly string[];

  constructor(
    private readonly inner: ModelProvider,
    mainModel: string,
    fallbacks: readonly string[],
  ) {
    this.name = inner.name;
    if (inner.serverWebSearch !== undefined) this.serverWebSearch = inner.serverWebSearch;
    this.chain = [mainModel, ...fallbacks.filter((model) => model !== mainModel)];
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    let current = request;
    for (;;) {
      let replied = false;
      try {
        for await (const event of this.inner.stream(current, signal)) {
          // Anything but a retry notice is part of the reply (text, thinking, a call, a web search).
          if (event.type !== 'retry') replied = true;
          // Each reply names the model that made it, so it is priced at that model's rates.
          yield event.type === 'done' ? { ...event, usage: { ...event.usage, model: current.model } } : event;
        }
        return;
      } catch (error) {
        const next = this.nextModel(current.model);
        if (replied || next === undefined || signal.aborted || !isProviderError(error) || !isModelUnavailable(error)) {
          throw error;
        }
        yield { type: 'model_fallback', from: current.model, to: next, reason: error.message };
        current = { ...current, model: next };
      }
    }
  }

  /** The model after `model` in the chain; undefined at its end or for a model outside it. */
  private nextModel(model: string): string | undefined {
    const at = this.chain.indexOf(model);
    return at < 0 ? undefined : this.chain[at + 1];
  }
}

/**
 * A provider whose key comes from a command (settings `apiKeyHelper`): when a call is rejected as unauthorised
 * (401/403, kind `auth`) before anything of the reply arrived, the key is fetched once more and the call sent once
 * again with a provider built for the new key; a second rejection is the normal error. Concurrent calls that fail
 * together share one refresh.
 */
import { isProviderError } from './provider-error.js';
import type { ModelProvider, ModelRequest, StreamEvent } from './types.js';

export class RefreshedKeyProvider implements ModelProvider {
  readonly name: string;
  readonly serverWebSearch?: boolean;
  private current: ModelProvider;
  private refreshing: Promise<ModelProvider> | undefined;

  constructor(
    first: ModelProvider,
    private readonly refresh: () => Promise<ModelProvider>,
  ) {
    this.current = first;
    this.name = first.name;
    if (first.serverWebSearch !== undefined) this.serverWebSearch = first.serverWebSearch;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const used = this.current;
    let replied = false;
    try {
      for await (const event of used.stream(request, signal)) {
        if (event.type !== 'retry') replied = true;
        yield event;
      }
      return;
    } catch (error) {
      if (replied || signal.aborted || !isProviderError(error) || error.kind !== 'auth') throw error;
    }
    yield* (await this.renewed(used)).stream(request, signal);
  }

  /** A provider with a fresh key; calls that failed with the same old provider share one refresh. */
  private renewed(used: ModelProvider): Promise<ModelProvider> {
    if (this.current !== used) return Promise.resolve(this.current);
    this.refreshing ??= this.refresh().then(
      (provider) => {
        this.current = provider;
        this.refreshing = undefined;
        return provider;
      },
      (error: unknown) => {
        this.refreshing = undefined;
        throw error;
      },
    );
    return this.refreshing;
  }
}

/**
 * Builds the configured provider (`config.provider`: Anthropic, or any OpenAI-compatible API). Each provider
 * is loaded lazily (dynamic import) so commands that never call a model, like `mca --version`, do not pay
 * for loading it.
 */
import type { EnvironmentView } from '../config/child-environment.js';
import type { Config, Credentials } from '../config/config.js';
import type { BackoffOptions } from './retry-policy.js';
import type { ModelProvider } from './types.js';
import { McaError } from '../errors/mca-error.js';

export const MISSING_API_KEY_MESSAGE =
  'ANTHROPIC_API_KEY is not set. Export it (or put it in your shell profile) and run mca again.';

export const MISSING_OPENAI_API_KEY_MESSAGE =
  'OPENAI_API_KEY is not set. Export it (any non-empty value, e.g. "ollama", for a local server that needs none) and run mca again.';

/** A user error: the CLI prints the message as one line and exits 2. */
export class MissingApiKeyError extends McaError {
  readonly code = 'MISSING_API_KEY' as const;
  constructor(message: string = MISSING_API_KEY_MESSAGE) {
    super(message);
    this.name = 'MissingApiKeyError';
  }
}

export interface CreateProviderOptions {
  backoff?: Partial<BackoffOptions>;
  /** The runtime's environment: the transport's proxy variables come from it (default: none set). */
  env?: EnvironmentView;

  /**
   * Settings `apiKeyHelper`: fetches the Anthropic key when the credentials hold none, and once more after the API
   * rejects it (RefreshedKeyProvider). The caller registers each key it returns as a secret.
   */
  keyHelper?: () => Promise<string>;
  /** Added to the missing-key message (an apiKeyHelper that was not used, and why). */
  missingKeyHint?: string | undefined;
}

/** The configured provider; with fallback models (`config.fallbackModel`) wrapped so calls can move to them. */
export async function createProvider(
  config: Config,
  credentials: Credentials,
  options: CreateProviderOptions = {},
): Promise<ModelProvider> {
  const provider = await keyedProvider(config, credentials, options);
  const fallbacks = config.fallbackModel ?? [];
  if (fallbacks.length === 0) return provider;
  const { FallbackProvider } = await import('./model-fallback.js');
  return new FallbackProvider(provider, config.model, fallbacks);
}

/** The bare provider, with its key from `options.keyHelper` when the environment names no Anthropic credential. */
async function keyedProvider(
  config: Config,
  credentials: Credentials,
  options: CreateProviderOptions,
): Promise<ModelProvider> {
  const helper = options.keyHelper;
  if (config.provider === 'openai' || !helper || credentials.apiKey?.trim() || credentials.authToken?.trim()) {
    return createBareProvider(config, credentials, options);
  }
  const withKey = async (): Promise<ModelProvider> =>
    createBareProvider(config, { ...credentials, apiKey: await helper() }, options);
  const { RefreshedKeyProvider } = await import('./refreshed-key.js');
  return new RefreshedKeyProvider(await withKey(), withKey);
}

async function createBareProvider(
  config: Config,
  credentials: Credentials,
  options: CreateProviderOptions,
): Promise<ModelProvider> {
  if (config.provider === 'openai') return createOpenAIProvider(config, credentials, options);
  const apiKey = credentials.apiKey?.trim();
  const authToken = credentials.authToken?.trim();
  if (!apiKey && !authToken) {
    throw new MissingApiKeyError(
      options.missingKeyHint ? `${MISSING_API_KEY_MESSAGE} (${options.missingKeyHint})` : MISSING_API_KEY_MESSAGE,
    );
  }
  const { AnthropicProvider } = await import('./anthropic.js');
  return new AnthropicProvider({
    ...(apiKey ? { apiKey } : {}),
    ...(authToken ? { authToken } : {}),
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    maxRetries: config.maxRetries,
    streamIdleTimeoutMs: config.streamIdleTimeoutMs,
    callTimeoutMs: config.modelCallTimeoutMs,
    backoff: { baseDelayMs: config.retryBaseDelayMs, ...options.backoff },
    env: options.env ?? {},
  });
}

async function createOpenAIProvider(
  config: Config,
  credentials: Credentials,
  options: CreateProviderOptions,
): Promise<ModelProvider> {
  const apiKey = credentials.openaiApiKey?.trim();
  if (!apiKey) throw new MissingApiKeyError(MISSING_OPENAI_API_KEY_MESSAGE);
  const { OpenAICompatibleProvider } = await import('./openai-compatible.js');
  return new OpenAICompatibleProvider({
    apiKey,
    ...(config.openaiBaseUrl ? { baseUrl: config.openaiBaseUrl } : {}),
    maxRetries: config.maxRetries,
    streamIdleTimeoutMs: config.streamIdleTimeoutMs,
    callTimeoutMs: config.modelCallTimeoutMs,
    backoff: { baseDelayMs: config.retryBaseDelayMs, ...options.backoff },
    env: options.env ?? {},
  });
}

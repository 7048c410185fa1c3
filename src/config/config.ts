import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { readProjectConfig, readUserConfig, type ConfigFileResult } from './config-files.js';
import { DEFAULT_PROFILE, PROFILE_KEYS, profileFor, type ProfileInUse } from './model-profiles.js';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Model backends: the Anthropic Messages API, or any OpenAI-compatible chat completions API. */
export const PROVIDERS = ['anthropic', 'openai'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/**
 * How tool calls travel (DESIGN.md "Tool protocol"): `native` uses the API's tool calling (several calls per reply);
 * `text` is the ReAct text protocol of spec E1, for servers without tool calling.
 */
export const TOOL_PROTOCOLS = ['native', 'text'] as const;
export type ToolProtocol = (typeof TOOL_PROTOCOLS)[number];

/** The model when `provider` is 'openai' and no layer names one (the Anthropic default would be refused). */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1';

export const DEFAULT_MODEL = 'claude-sonnet-5-5';

/** Every tunable of mca. Layers: defaults < $MCA_HOME/config.json < <project>/.mca/config.json < env < flags. */
export const configSchema = z
  .object({
    model: z.string().min(1).default(DEFAULT_MODEL),
    /** Model for archive summaries; empty means "same as model". */
    summaryModel: z.string().min(1).optional(),
    /** Window, threshold, retained rounds, output limit: loadConfig fills unset ones from the model's profile. */
    contextWindow: z.number().int().min(4_000).max(10_000_000).default(DEFAULT_PROFILE.contextWindow),
    compressionThreshold: z.number().gt(0).lte(1).default(DEFAULT_PROFILE.compressionThreshold),
    minRetainRounds: z.number().int().min(1).max(1_000).default(DEFAULT_PROFILE.minRetainRounds),
    summaryTimeoutMs: z.number().int().min(1).max(3_600_000).default(120_000),
    maxSteps: z.number().int().min(1).max(1_000).default(50),
    maxOutputTokens: z.number().int().min(256).max(128_000).default(DEFAULT_PROFILE.maxOutputTokens),
    /** A stream that sends nothing for this long is treated as dead (network error, retried). */
    streamIdleTimeoutMs: z.number().int().min(100).max(3_600_000).default(90_000),
    /** The same action repeated this many times in a row ends the turn. */
    maxRepeatedActions: z.number().int().min(2).max(100).default(4),
    maxRetries: z.number().int().min(0).max(20).default(4),
    /** First wait before retrying a failed model call; doubles each retry (server retry-after wins). */
    retryBaseDelayMs: z.number().int().min(0).max(60_000).default(1_000),
    codeLawMaxChars: z.number().int().min(100).default(40_000),
    permissionMode: z.enum(PERMISSION_MODES).default('default'),
    provider: z.enum(PROVIDERS).default('anthropic'),
    toolProtocol: z.enum(TOOL_PROTOCOLS).default('native'),
    /** Extended thinking budget in tokens (Anthropic, native protocol only); 'off' by default. */
    thinking: z.union([z.literal('off'), z.number().int().min(1_024).max(64_000)]).default('off'),
    /** The Anthropic endpoint (ANTHROPIC_BASE_URL). */
    baseUrl: z.string().url().optional(),
    /** The OpenAI-compatible endpoint including its version path (OPENAI_BASE_URL); default OpenAI's. */
    openaiBaseUrl: z.string().url().optional(),
    mcaHome: z.string().min(1).refine(isAbsolute, 'must be an absolute path'),
    /**
     * Dollar prices per million tokens by exact model name, over the built-in table (src/providers/model-prices.ts),
     * for /cost and the status line.
     */
    modelPrices: z
      .record(
        z.string().min(1),
        z.strictObject({
          input: z.number().min(0),
          output: z.number().min(0),
          cacheWrite: z.number().min(0),
          cacheRead: z.number().min(0),
        }),
      )
      .default({}),
  })
  .strict();

/** The validated config; `contextProfile` says which model profile filled the context settings left unset. */
export type Config = z.infer<typeof configSchema> & { contextProfile?: ProfileInUse };

/** Secrets never live in Config (which is logged and persisted); they travel separately. */
export interface Credentials {
  /** ANTHROPIC_API_KEY. */
  apiKey: string | undefined;
  /** OPENAI_API_KEY (any non-empty value for local servers that need none). */
  openaiApiKey?: string | undefined;
}

/** Every secret the credentials hold, for redaction of output and persisted records. */
export function credentialSecrets(credentials: Credentials): string[] {
  return [credentials.apiKey, credentials.openaiApiKey].filter((key): key is string => key !== undefined && key !== '');
}

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Environment variables and the config key each one sets. */
const ENV_KEYS: ReadonlyArray<[string, keyof Config, 'string' | 'number']> = [
  ['MCA_MODEL', 'model', 'string'],
  ['MCA_SUMMARY_MODEL', 'summaryModel', 'string'],
  ['MCA_CONTEXT_WINDOW', 'contextWindow', 'number'],
  ['MCA_COMPRESSION_THRESHOLD', 'compressionThreshold', 'number'],
  ['MCA_MIN_RETAIN_ROUNDS', 'minRetainRounds', 'number'],
  ['MCA_MAX_OUTPUT_TOKENS', 'maxOutputTokens', 'number'],
  ['MCA_SUMMARY_TIMEOUT_MS', 'summaryTimeoutMs', 'number'],
  ['MCA_MAX_STEPS', 'maxSteps', 'number'],
  ['MCA_STREAM_IDLE_TIMEOUT_MS', 'streamIdleTimeoutMs', 'number'],
  ['MCA_MAX_RETRIES', 'maxRetries', 'number'],
  ['MCA_RETRY_BASE_MS', 'retryBaseDelayMs', 'number'],
  ['MCA_PERMISSION_MODE', 'permissionMode', 'string'],
  ['MCA_PROVIDER', 'provider', 'string'],
  ['MCA_TOOL_PROTOCOL', 'toolProtocol', 'string'],
  ['ANTHROPIC_BASE_URL', 'baseUrl', 'string'],
  ['OPENAI_BASE_URL', 'openaiBaseUrl', 'string'],
];

export interface LoadConfigOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Values from command-line flags; undefined entries are ignored. */
  flags?: Partial<Config>;
  /** Receives one line per thing ignored on the way (a forbidden project key, a skipped project file). */
  warnings?: string[];
}

/** MCA_HOME, or ~/.mca. A relative MCA_HOME would put sessions wherever mca happens to run: refused. */
export function resolveMcaHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.MCA_HOME?.trim();
  if (!fromEnv) return join(homedir(), '.mca');
  if (!isAbsolute(fromEnv)) throw new ConfigError(`MCA_HOME must be an absolute path, got "${fromEnv}"`);
  return fromEnv;
}

function layerValues(result: ConfigFileResult, warnings: string[]): Record<string, unknown> {
  if (result.ok === true) return result.values;
  if (result.ok === false) throw new ConfigError(result.error);
  warnings.push(result.warning);
  return {};
}

function envLayer(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const layer: Record<string, unknown> = {};
  for (const [name, key, kind] of ENV_KEYS) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    if (kind === 'number') {
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new ConfigError(`${name} must be a number, got "${raw}"`);
      layer[key] = value;
    } else {
      layer[key] = raw.trim();
    }
  }
  return layer;
}

function withoutUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

function describeIssue(issue: z.core.$ZodIssue, sources: string): string {
  const key = issue.path.join('.') || '(root)';
  return `invalid config value for "${key}" (${sources}): ${issue.message}`;
}

/** Loads and validates the layered configuration. Throws ConfigError with a one-line message. */
export function loadConfig(options: LoadConfigOptions): Config {
  const env = options.env ?? process.env;
  const mcaHome = resolveMcaHome(env);
  const warnings = options.warnings ?? [];
  const merged: Record<string, unknown> = {
    mcaHome,
    ...layerValues(readUserConfig(mcaHome), warnings),
    ...layerValues(readProjectConfig(options.cwd, warnings), warnings),
    ...envLayer(env),
    ...withoutUndefined((options.flags ?? {}) as Record<string, unknown>),
  };
  if (merged.provider === 'openai' && merged.model === undefined) merged.model = DEFAULT_OPENAI_MODEL;
  const model = typeof merged.model === 'string' ? merged.model : DEFAULT_MODEL;
  const profile = profileFor(model);
  const overridden = PROFILE_KEYS.filter((key) => merged[key] !== undefined);
  for (const key of PROFILE_KEYS) merged[key] ??= profile[key];
  const result = configSchema.safeParse(merged);
  if (!result.success) {
    const first = result.error.issues[0];
    const sources = 'config files, MCA_* environment variables or flags';
    throw new ConfigError(first ? describeIssue(first, sources) : 'invalid configuration');
  }
  return { ...result.data, contextProfile: { name: profile.name, overridden } };
}

export function loadCredentials(env: NodeJS.ProcessEnv = process.env): Credentials {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  const openaiApiKey = env.OPENAI_API_KEY?.trim();
  return { apiKey: apiKey ? apiKey : undefined, openaiApiKey: openaiApiKey ? openaiApiKey : undefined };
}

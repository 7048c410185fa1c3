/**
 * The layered configuration: defaults < $MCA_HOME/config.json < <project>/.mca/config.json < env < flags.
 * Each key remembers which layer set it, so a bad value is named with its file, variable or flag
 * (config-schema.ts checks the values).
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { readProjectConfig, readUserConfig, type ConfigFileResult } from './config-files.js';
import { ConfigError } from './config-error.js';
import { DEFAULT_MODEL, validateConfig, type Config } from './config-schema.js';
import { resolveModelName } from './model-aliases.js';
import { PROFILE_KEYS, profileFor } from './model-profiles.js';

export { ConfigError } from './config-error.js';
export { DEFAULT_MODEL, validateConfig, type Config, type ModelPriceRow } from './config-schema.js';
export * from './config-choices.js';

/** The model when `provider` is 'openai' and no layer names one (the Anthropic default would be refused). */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1';

/** Secrets never live in Config (which is logged and persisted); they travel separately. */
export interface Credentials {
  /** ANTHROPIC_API_KEY: sent as `x-api-key`. */
  apiKey: string | undefined;
  /** ANTHROPIC_AUTH_TOKEN: sent as `Authorization: Bearer` (gateways, as in Claude Code). */
  authToken?: string | undefined;
  /** OPENAI_API_KEY (any non-empty value for local servers that need none). */
  openaiApiKey?: string | undefined;
}

/** Every secret the credentials hold, for redaction of output and persisted records. */
export function credentialSecrets(credentials: Credentials): string[] {
  return [credentials.apiKey, credentials.authToken, credentials.openaiApiKey].filter(
    (key): key is string => key !== undefined && key !== '',
  );
}

/** Environment variables and the config key each one sets. */
const ENV_KEYS: ReadonlyArray<[string, keyof Config, 'string' | 'number']> = [
  // Claude Code's variable first: MCA_MODEL, listed after it, wins when both are set.
  ['ANTHROPIC_MODEL', 'model', 'string'],
  ['MCA_MODEL', 'model', 'string'],
  ['MCA_SUMMARY_MODEL', 'summaryModel', 'string'],
  ['MCA_CONTEXT_WINDOW', 'contextWindow', 'number'],
  ['MCA_COMPRESSION_THRESHOLD', 'compressionThreshold', 'number'],
  ['MCA_MIN_RETAIN_ROUNDS', 'minRetainRounds', 'number'],
  ['MCA_MAX_OUTPUT_TOKENS', 'maxOutputTokens', 'number'],
  ['MCA_SUMMARY_TIMEOUT_MS', 'summaryTimeoutMs', 'number'],
  ['MCA_MAX_STEPS', 'maxSteps', 'number'],
  ['MCA_STREAM_IDLE_TIMEOUT_MS', 'streamIdleTimeoutMs', 'number'],
  ['MCA_MODEL_CALL_TIMEOUT_MS', 'modelCallTimeoutMs', 'number'],
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
  /** `model` from a Claude Code settings file (claude-settings.ts): above the config files, below env and flags. */
  settingsModel?: { value: string; file: string } | undefined;
  /** `permissions.defaultMode` from a Claude Code settings file: the start mode, below MCA_PERMISSION_MODE and flags. */
  settingsPermissionMode?: { value: string; file: string } | undefined;
  /** `fallbackModel` from a Claude Code settings file: like `settingsModel`, below `--fallback-model`. */
  settingsFallbackModel?: { value: string[]; file: string } | undefined;
  /**
   * `alwaysThinkingEnabled` from a Claude Code settings file: thinking on (ALWAYS_THINKING_BUDGET) or off by
   * default, below mca's own config files (a `thinking` budget there says more), env and flags.
   */
  settingsThinking?: { value: boolean; file: string } | undefined;
}

/** The thinking budget `alwaysThinkingEnabled` and `/thinking` turn on (the agent lowers it to fit max_tokens). */
export const ALWAYS_THINKING_BUDGET = 16_000;

/** Claude Code's refusal of `--fallback-model` naming the main model. */
export const SAME_FALLBACK_MESSAGE = 'Fallback model cannot be the same as the main model';

/**
 * Short names (`sonnet`, …) become model ids in every key naming a model. A fallback equal to the main model is
 * refused when a flag asked for it (Claude Code's error) and dropped when a file lists it (it could never help).
 */
function resolveModels(merged: Record<string, unknown>, env: NodeJS.ProcessEnv, fallbackFromFlag: boolean): void {
  for (const key of ['model', 'summaryModel'] as const) {
    if (typeof merged[key] === 'string') merged[key] = resolveModelName(merged[key], env);
  }
  const fallback = merged.fallbackModel;
  if (!Array.isArray(fallback) || !fallback.every((entry): entry is string => typeof entry === 'string')) return;
  const resolved = [...new Set(fallback.map((entry) => resolveModelName(entry, env)))];
  if (fallbackFromFlag && resolved.includes(merged.model as string)) throw new ConfigError(SAME_FALLBACK_MESSAGE);
  const kept = resolved.filter((entry) => entry !== merged.model);
  merged.fallbackModel = kept.length > 0 ? kept : undefined;
}

/** MCA_HOME, or ~/.mca. A relative MCA_HOME would put sessions wherever mca happens to run: refused. */
export function resolveMcaHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.MCA_HOME?.trim();
  if (!fromEnv) return join(homedir(), '.mca');
  if (!isAbsolute(fromEnv)) throw new ConfigError(`MCA_HOME must be an absolute path, got "${fromEnv}"`);
  return fromEnv;
}

/** One layer's values and where each came from. */
interface Layer {
  values: Record<string, unknown>;
  sourceOf: (key: string) => string;
}

function fileLayer(result: ConfigFileResult, warnings: string[]): Layer {
  if (result.ok === false) throw new ConfigError(result.error);
  if (result.ok === 'skipped') {
    warnings.push(result.warning);
    return { values: {}, sourceOf: () => '' };
  }
  const file = result.file ?? 'a config file';
  return { values: result.values, sourceOf: () => `in ${file}` };
}

function envLayer(env: NodeJS.ProcessEnv): Layer {
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  for (const [name, key, kind] of ENV_KEYS) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    names[key] = name;
    if (kind === 'number') {
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new ConfigError(`${name} must be a number, got "${raw}"`);
      values[key] = value;
    } else {
      values[key] = raw.trim();
    }
  }
  return { values, sourceOf: (key) => `from ${names[key] ?? 'the environment'}` };
}

/** `maxSteps` → `--max-steps`: every flag that sets a config key is the key in kebab case. */
function flagLayer(flags: Partial<Config>): Layer {
  const values = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  return { values, sourceOf: (key) => `from --${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}` };
}

/** Loads and validates the layered configuration. Throws ConfigError with a one-line message. */
export function loadConfig(options: LoadConfigOptions): Config {
  const env = options.env ?? process.env;
  const mcaHome = resolveMcaHome(env);
  const warnings = options.warnings ?? [];
  const layers: Layer[] = [
    { values: { mcaHome }, sourceOf: () => 'from MCA_HOME' },
    ...(options.settingsThinking
      ? [
          {
            values: { thinking: options.settingsThinking.value ? ALWAYS_THINKING_BUDGET : 'off' },
            sourceOf: () => `in ${options.settingsThinking?.file}`,
          },
        ]
      : []),
    fileLayer(readUserConfig(mcaHome), warnings),
    fileLayer(readProjectConfig(options.cwd, warnings), warnings),
    ...(options.settingsModel
      ? [{ values: { model: options.settingsModel.value }, sourceOf: () => `in ${options.settingsModel?.file}` }]
      : []),
    ...(options.settingsPermissionMode
      ? [
          {
            values: { permissionMode: options.settingsPermissionMode.value },
            sourceOf: () => `in ${options.settingsPermissionMode?.file}`,
          },
        ]
      : []),
    ...(options.settingsFallbackModel
      ? [
          {
            values: { fallbackModel: options.settingsFallbackModel.value },
            sourceOf: () => `in ${options.settingsFallbackModel?.file}`,
          },
        ]
      : []),
    envLayer(env),
  ];
  const flags = flagLayer(options.flags ?? {});
  layers.push(flags);
  // No prototype: a file's "__proto__" key is then an ordinary (unknown, refused) key, not a prototype.
  const merged = Object.create(null) as Record<string, unknown>;
  const setBy = new Map<string, Layer>();
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.values)) {
      merged[key] = value;
      setBy.set(key, layer);
    }
  }
  if (merged.provider === 'openai' && merged.model === undefined) merged.model = DEFAULT_OPENAI_MODEL;
  merged.model ??= DEFAULT_MODEL;
  resolveModels(merged, env, setBy.get('fallbackModel') === flags);
  const model = typeof merged.model === 'string' ? merged.model : DEFAULT_MODEL;
  const profile = profileFor(model);
  const overridden = PROFILE_KEYS.filter((key) => merged[key] !== undefined);
  for (const key of PROFILE_KEYS) merged[key] ??= profile[key];
  const config = validateConfig(merged, (key) => setBy.get(key)?.sourceOf(key));
  return { ...config, contextProfile: { name: profile.name, overridden } };
}

export function loadCredentials(env: NodeJS.ProcessEnv = process.env): Credentials {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  const authToken = env.ANTHROPIC_AUTH_TOKEN?.trim();
  const openaiApiKey = env.OPENAI_API_KEY?.trim();
  return {
    apiKey: apiKey ? apiKey : undefined,
    authToken: authToken ? authToken : undefined,
    openaiApiKey: openaiApiKey ? openaiApiKey : undefined,
  };
}

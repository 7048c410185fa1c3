/**
 * Every tunable of mca and its check, written out by hand. About twenty flat keys need no schema library, and
 * this check runs on every start, where loading zod alone took longer (≈20 ms) than the rest of the config path.
 * A problem is one line naming the key, where its value came from (a file, an environment variable, a flag) and
 * what was expected; the first problem in key order wins, unknown keys after known ones.
 */
import { isAbsolute } from 'node:path';
import { ConfigError } from './config-error.js';
import {
  PERMISSION_MODES,
  PROVIDERS,
  TOOL_PROTOCOLS,
  type PermissionMode,
  type ProviderName,
  type ToolProtocol,
} from './config-choices.js';
import { DEFAULT_MODEL } from './model-catalog.js';
import { DEFAULT_PROFILE, type ProfileInUse } from './model-profiles.js';

export { DEFAULT_MODEL };

/** Dollar prices per million tokens of one model. */
export interface ModelPriceRow {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** The validated config; `contextProfile` says which model profile filled the context settings left unset. */
export interface Config {
  model: string;
  /** Model for archive summaries; unset means "same as model". */
  summaryModel?: string | undefined;
  /**
   * Claude Code's fallback models, tried in order when a call for the main model fails as overloaded (529) or not
   * found (404) after the normal retries (src/providers/model-fallback.ts); at most MAX_FALLBACK_MODELS, never `model`.
   */
  fallbackModel?: string[] | undefined;
  /** Window, threshold, retained rounds, output limit: loadConfig fills unset ones from the model's profile. */
  contextWindow: number;
  compressionThreshold: number;
  minRetainRounds: number;
  summaryTimeoutMs: number;
  maxSteps: number;
  maxOutputTokens: number;
  /** A stream that sends nothing new for this long is treated as dead (network error, retried); pings do not count. */
  streamIdleTimeoutMs: number;
  /** One model call (every retry included) ends with a timeout error after this long, whatever the stream sends. */
  modelCallTimeoutMs: number;
  /** The same action repeated this many times in a row ends the turn. */
  maxRepeatedActions: number;
  maxRetries: number;
  /** First wait before retrying a failed model call; doubles each retry (server retry-after wins). */
  retryBaseDelayMs: number;
  codeLawMaxChars: number;
  permissionMode: PermissionMode;
  provider: ProviderName;
  toolProtocol: ToolProtocol;
  /** Extended thinking budget in tokens (Anthropic, native protocol only); 'off' by default. */
  thinking: 'off' | number;
  /** The Anthropic endpoint (ANTHROPIC_BASE_URL). */
  baseUrl?: string | undefined;
  /** The OpenAI-compatible endpoint including its version path (OPENAI_BASE_URL); default OpenAI's. */
  openaiBaseUrl?: string | undefined;
  mcaHome: string;
  /**
   * Dollar prices per million tokens by exact model name, over the built-in table (src/providers/model-prices.ts),
   * for /cost and the status line.
   */
  modelPrices: Record<string, ModelPriceRow>;
  contextProfile?: ProfileInUse;
}

/** A check returns what was expected when the value fails it, else undefined. */
type Check = (value: unknown) => string | undefined;

interface KeyRule {
  check: Check;
  /** Used when the key is unset; a function for values that must not be shared between configs. */
  fallback?: () => unknown;
  /** Unset is a problem (no fallback can stand in). */
  required?: true;
  /** The value kept once the check passed (default: as given). */
  normalize?: (value: unknown) => unknown;
}

function wholeNumber(min: number, max?: number): Check {
  const expected =
    max === undefined ? `expected a whole number of at least ${min}` : `expected a whole number from ${min} to ${max}`;
  return (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min && (max === undefined || value <= max)
      ? undefined
      : expected;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** A model name is shown in the REPL header and status line: printable text only (no escape sequences). */
const modelName: Check = (value) =>
  typeof value === 'string' && value.length > 0 && value.length <= 200 && !UNPRINTABLE.test(value)
    ? undefined
    : 'expected a model name of printable characters (no control characters or escape sequences, at most 200)';

/** Claude Code's limit on the `fallbackModel` list. */
export const MAX_FALLBACK_MODELS = 3;

const modelList: Check = (value) =>
  Array.isArray(value) && value.length <= MAX_FALLBACK_MODELS && value.every((entry) => modelName(entry) === undefined)
    ? undefined
    : `expected a list of at most ${MAX_FALLBACK_MODELS} model names`;

function oneOf(choices: readonly string[]): Check {
  const expected = `expected one of ${choices.join(', ')}`;
  return (value) => (typeof value === 'string' && choices.includes(value) ? undefined : expected);
}

const fraction: Check = (value) =>
  typeof value === 'number' && value > 0 && value <= 1 ? undefined : 'expected a number above 0 and at most 1';

const thinkingBudget: Check = (value) =>
  value === 'off' || wholeNumber(1_024, 64_000)(value) === undefined
    ? undefined
    : 'expected "off" or a whole number from 1024 to 64000';

const url: Check = (value) =>
  typeof value === 'string' && URL.canParse(value.trim()) ? undefined : 'expected a URL such as http://127.0.0.1:8080/';

/** Surrounding blanks and the tabs and line breaks a URL parser ignores are dropped (as the WHATWG parser does). */
const cleanUrl = (value: unknown): unknown => (value as string).trim().replace(/[\t\n\r]/g, '');

const absolutePath: Check = (value) =>
  typeof value === 'string' && value.length > 0 && isAbsolute(value) ? undefined : 'expected an absolute path';

const PRICE_FIELDS = ['input', 'output', 'cacheWrite', 'cacheRead'] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const value =
  <T>(fixed: T) =>
  (): T =>
    fixed;

/** Key order is check order. Optional keys have no fallback and stay absent when unset. */
const RULES: Readonly<Record<keyof Omit<Config, 'contextProfile'>, KeyRule>> = {
  model: { check: modelName, fallback: value(DEFAULT_MODEL) },
  summaryModel: { check: modelName },
  fallbackModel: { check: modelList },
  contextWindow: { check: wholeNumber(4_000, 10_000_000), fallback: value(DEFAULT_PROFILE.contextWindow) },
  compressionThreshold: { check: fraction, fallback: value(DEFAULT_PROFILE.compressionThreshold) },
  minRetainRounds: { check: wholeNumber(1, 1_000), fallback: value(DEFAULT_PROFILE.minRetainRounds) },
  summaryTimeoutMs: { check: wholeNumber(1, 3_600_000), fallback: value(120_000) },
  maxSteps: { check: wholeNumber(1, 1_000), fallback: value(50) },
  maxOutputTokens: { check: wholeNumber(256, 128_000), fallback: value(DEFAULT_PROFILE.maxOutputTokens) },
  streamIdleTimeoutMs: { check: wholeNumber(100, 3_600_000), fallback: value(90_000) },
  modelCallTimeoutMs: { check: wholeNumber(1_000, 21_600_000), fallback: value(1_800_000) },
  maxRepeatedActions: { check: wholeNumber(2, 100), fallback: value(4) },
  maxRetries: { check: wholeNumber(0, 20), fallback: value(4) },
  retryBaseDelayMs: { check: wholeNumber(0, 60_000), fallback: value(1_000) },
  // Capped: a project may set it, and each memory file reads up to 4 bytes per character.
  codeLawMaxChars: { check: wholeNumber(100, 200_000), fallback: value(40_000) },
  permissionMode: { check: oneOf(PERMISSION_MODES), fallback: value('default') },
  provider: { check: oneOf(PROVIDERS), fallback: value('anthropic') },
  toolProtocol: { check: oneOf(TOOL_PROTOCOLS), fallback: value('native') },
  thinking: { check: thinkingBudget, fallback: value('off') },
  baseUrl: { check: url, normalize: cleanUrl },
  openaiBaseUrl: { check: url, normalize: cleanUrl },
  mcaHome: { check: absolutePath, required: true },
  modelPrices: { check: (prices) => (isPlainObject(prices) ? undefined : 'expected an object'), fallback: () => ({}) },
};

/** A value as the error line shows it: short, quoted, never raw control characters. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Where a key's value came from, for the error line; undefined for a key nothing set. */
export type SourceOf = (key: string) => string | undefined;

const ANY_SOURCE = 'config files, MCA_* environment variables or flags';

function invalid(key: string, source: string | undefined, expected: string, got: unknown): ConfigError {
  return new ConfigError(
    `invalid config value for ${shown(key)} (${source ?? ANY_SOURCE}): ${expected}, got ${shown(got)}`,
  );
}

/** Each row must have exactly the four prices, each a number of at least 0. */
function checkPrices(prices: Record<string, unknown>, source: string | undefined): Record<string, ModelPriceRow> {
  const checked: Record<string, ModelPriceRow> = {};
  for (const [model, row] of Object.entries(prices)) {
    const key = `modelPrices.${model}`;
    if (model === '') throw invalid(key, source, 'expected a model name', model);
    if (!isPlainObject(row)) throw invalid(key, source, `expected an object with ${PRICE_FIELDS.join(', ')}`, row);
    for (const field of PRICE_FIELDS) {
      const price = row[field];
      if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) {
        throw invalid(`${key}.${field}`, source, 'expected a price of at least 0', price);
      }
    }
    const extra = Object.keys(row).find((field) => !(PRICE_FIELDS as readonly string[]).includes(field));
    if (extra !== undefined) throw invalid(`${key}.${extra}`, source, 'expected no such key', row[extra]);
    checked[model] = {
      input: row.input as number,
      output: row.output as number,
      cacheWrite: row.cacheWrite as number,
      cacheRead: row.cacheRead as number,
    };
  }
  return checked;
}

/** Checks merged values and fills defaults. Throws ConfigError with one line for the first problem. */
export function validateConfig(
  values: Readonly<Record<string, unknown>>,
  sourceOf: SourceOf = () => undefined,
): Config {
  const config: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(RULES) as Array<[keyof typeof RULES, KeyRule]>) {
    const given = Object.hasOwn(values, key) ? values[key] : undefined;
    if (given === undefined) {
      if (rule.required) throw invalid(key, sourceOf(key), rule.check(given) ?? 'expected a value', given);
      if (rule.fallback) config[key] = rule.fallback();
      continue;
    }
    const expected = rule.check(given);
    if (expected !== undefined) throw invalid(key, sourceOf(key), expected, given);
    if (key === 'modelPrices') config[key] = checkPrices(given as Record<string, unknown>, sourceOf(key));
    else config[key] = rule.normalize ? rule.normalize(given) : given;
  }
  const unknown = Object.keys(values).find((key) => !Object.hasOwn(RULES, key) && values[key] !== undefined);
  if (unknown !== undefined) {
    throw new ConfigError(`unknown config key ${shown(unknown)} (${sourceOf(unknown) ?? ANY_SOURCE})`);
  }
  return config as unknown as Config;
}

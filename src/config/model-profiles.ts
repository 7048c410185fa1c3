/**
 * Model profiles (spec 004, issue 13 deliverable 6): the context settings that differ by model family, used for
 * every setting the user's config, environment and flags leave unset. The window and output limit are the
 * family's published limits (the output limit capped at mca's 32,000 default, so one reply never eats a small
 * window); the threshold and retained rounds are mca's policy for that window size (BENCHMARKS.md explains it).
 */
import { resolveModelName } from './model-aliases.js';
import { catalogModels } from './model-catalog.js';

export interface ContextProfile {
  /** Shown by `/context`. */
  name: string;
  contextWindow: number;
  compressionThreshold: number;
  minRetainRounds: number;
  maxOutputTokens: number;
}

export const PROFILE_KEYS = ['contextWindow', 'compressionThreshold', 'minRetainRounds', 'maxOutputTokens'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

/** Whatever no family matches: a 200k window, as DESIGN.md "Token budget" states the defaults. */
export const DEFAULT_PROFILE: ContextProfile = Object.freeze({
  name: 'default',
  contextWindow: 200_000,
  compressionThreshold: 0.5,
  minRetainRounds: 10,
  maxOutputTokens: 32_000,
});

/**
 * Every family compacts at half its window (BENCHMARKS.md "Policy"): with prompt caching, each call pays for
 * reading the whole prompt, so cost follows the average prompt size, while a compaction is cheap (the summary is
 * asked on the cached prefix, and retention keeps older rounds in one-line form). Small windows keep fewer whole
 * rounds (older ones live in summaries, ledgers and tool memory) and a smaller reply limit.
 */
const FAMILIES: ReadonlyArray<{ pattern: RegExp; profile: ContextProfile }> = [
  { pattern: /^claude-/, profile: { ...DEFAULT_PROFILE, name: 'claude (200k)' } },
  {
    pattern: /^gpt-4\.1/,
    profile: {
      name: 'gpt-4.1 (1M)',
      contextWindow: 1_000_000,
      compressionThreshold: 0.5,
      minRetainRounds: 10,
      maxOutputTokens: 32_000,
    },
  },
  {
    pattern: /^gpt-5/,
    profile: {
      name: 'gpt-5 (400k)',
      contextWindow: 400_000,
      compressionThreshold: 0.5,
      minRetainRounds: 10,
      maxOutputTokens: 32_000,
    },
  },
  {
    pattern: /^(o[134])(-|$)/,
    profile: {
      name: 'openai o-series (200k)',
      contextWindow: 200_000,
      compressionThreshold: 0.5,
      minRetainRounds: 10,
      maxOutputTokens: 32_000,
    },
  },
  {
    pattern: /^gpt-4o/,
    profile: {
      name: 'gpt-4o (128k)',
      contextWindow: 128_000,
      compressionThreshold: 0.5,
      minRetainRounds: 8,
      maxOutputTokens: 16_000,
    },
  },
  {
    pattern: /^gemini-/,
    profile: {
      name: 'gemini (1M)',
      contextWindow: 1_000_000,
      compressionThreshold: 0.5,
      minRetainRounds: 10,
      maxOutputTokens: 32_000,
    },
  },
  {
    pattern: /^deepseek-/,
    profile: {
      name: 'deepseek (64k)',
      contextWindow: 64_000,
      compressionThreshold: 0.5,
      minRetainRounds: 4,
      maxOutputTokens: 8_192,
    },
  },
  {
    pattern: /^(qwen|llama|mistral|codestral)/,
    profile: {
      name: 'open-weights (128k)',
      contextWindow: 128_000,
      compressionThreshold: 0.5,
      minRetainRounds: 8,
      maxOutputTokens: 8_192,
    },
  },
];

/** The profile of a model name (case-insensitive; a provider prefix like `anthropic/` is ignored). */
export function profileFor(model: string): ContextProfile {
  const name = model.toLowerCase().replace(/^[a-z0-9_-]+\//, '');
  return FAMILIES.find((family) => family.pattern.test(name))?.profile ?? DEFAULT_PROFILE;
}

/** Which profile a config used and which of its settings the user set instead (for `/context`). */
export interface ProfileInUse {
  name: string;
  /** Settings taken from config files, environment or flags rather than the profile. */
  overridden: ProfileKey[];
}

/** The models `/model` offers in its picker, by provider (any other name may still be typed): the catalog's. */
export const KNOWN_MODELS: Readonly<Record<'anthropic' | 'openai', readonly string[]>> = Object.freeze({
  anthropic: catalogModels('anthropic'),
  openai: catalogModels('openai'),
});

export type ModelNameCheck = { ok: true; warning?: string } | { ok: false; message: string };

/**
 * `/model name`: refused when it is not a plausible model identifier (spaces, control characters, over 200
 * characters); accepted with a warning when no profile knows its family (its window is then taken as 200k).
 */
export function checkModelName(name: string): ModelNameCheck {
  if (!/^[A-Za-z0-9][\w.:/@-]{0,199}$/.test(name)) {
    return { ok: false, message: `"${name}" is not a model name (letters, digits and . : / @ - _ only)` };
  }
  // A short name (`haiku`) is checked as the model it stands for.
  const model = resolveModelName(name);
  if (profileFor(model) === DEFAULT_PROFILE) {
    return {
      ok: true,
      warning: `${model} is not a model mca knows; its context window is taken as ${DEFAULT_PROFILE.contextWindow.toLocaleString('en-US')} tokens`,
    };
  }
  return { ok: true };
}

/**
 * Families that take image input (Claude, also behind a cloud prefix like `us.anthropic.`; GPT-4o/4.1/4-turbo/5,
 * o-series, Gemini) and open-weights vision models by name.
 */
const IMAGE_MODELS =
  /(^|[./:])(claude-|gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|o[134](-|$)|gemini-)|(vision|-vl\b|-vl-|pixtral|llava)/;

/**
 * Whether a model takes images. A model no rule names does not (DeepSeek, text-only open-weights models, unknown
 * names): its requests carry IMAGE_OMITTED_NOTE in place of each image, never an image the server would refuse.
 */
export function takesImages(model: string): boolean {
  return IMAGE_MODELS.test(model.toLowerCase().replace(/^[a-z0-9_-]+\//, ''));
}

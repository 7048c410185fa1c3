/**
 * Claude Code's model short names (`sonnet`, `opus`, `haiku`): each stands for the current model of its family, as
 * `claude --model sonnet` means. The one resolver every place that takes a model name goes through (`--model`,
 * `--fallback-model`, settings and config files, `/model`, the SDK's `set_model`, subagent definitions). As in Claude
 * Code, ANTHROPIC_DEFAULT_SONNET_MODEL / _OPUS_MODEL / _HAIKU_MODEL name another model for a short name. Any other
 * name is returned as written (its checks stay where they were: model-profiles.ts `checkModelName`).
 */

import { MODEL_ALIASES, type ModelAlias } from './model-catalog.js';

export { MODEL_ALIASES, type ModelAlias };

/** Claude Code's variables that point a short name elsewhere (a full model name each). */
export const MODEL_ALIAS_ENV: Readonly<Record<ModelAlias, string>> = Object.freeze({
  sonnet: 'ANTHROPIC_DEFAULT_SONNET_MODEL',
  opus: 'ANTHROPIC_DEFAULT_OPUS_MODEL',
  haiku: 'ANTHROPIC_DEFAULT_HAIKU_MODEL',
});

function aliasOf(name: string): ModelAlias | undefined {
  const key = name.trim().toLowerCase();
  return Object.hasOwn(MODEL_ALIASES, key) ? (key as ModelAlias) : undefined;
}

/**
 * The model id `name` stands for: a short name's current model (or its ANTHROPIC_DEFAULT_*_MODEL), any other name
 * unchanged. `inherit` (a subagent's "the session's model") is not a model and is returned as is.
 */
export function resolveModelName(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const alias = aliasOf(name);
  if (alias === undefined) return name;
  const override = env[MODEL_ALIAS_ENV[alias]]?.trim();
  return override !== undefined && override !== '' ? override : MODEL_ALIASES[alias];
}

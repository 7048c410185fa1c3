/**
 * Issue 41: the `/model` picker, the short names, the default model and the price table come from one list and
 * agree (the picker once offered claude-sonnet-4-5 … while the default was claude-sonnet-5-5 and `opus` meant
 * claude-opus-5-5, a model the picker never showed).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL } from '../../src/config/config.js';
import { resolveModelName } from '../../src/config/model-aliases.js';
import { pickerLabel } from '../../src/config/model-catalog.js';
import { KNOWN_MODELS } from '../../src/config/model-profiles.js';
import { priceOf } from '../../src/providers/model-prices.js';

describe('one model list', () => {
  it('the picker offers the default model first and every short name’s model', () => {
    expect(KNOWN_MODELS.anthropic[0]).toBe(DEFAULT_MODEL);
    for (const alias of ['sonnet', 'opus', 'haiku']) {
      expect(KNOWN_MODELS.anthropic).toContain(resolveModelName(alias, {}));
    }
  });

  it('every model the picker offers has a price', () => {
    for (const id of [...KNOWN_MODELS.anthropic, ...KNOWN_MODELS.openai]) expect(priceOf(id), id).toBeDefined();
  });

  it('the picker labels a model with its short name', () => {
    expect(pickerLabel(resolveModelName('opus', {}))).toBe(`${resolveModelName('opus', {})} (opus)`);
    expect(pickerLabel('gpt-5')).toBe('gpt-5');
  });

  it('the default model is what `sonnet` names', () => {
    expect(resolveModelName('sonnet', {})).toBe(DEFAULT_MODEL);
  });
});

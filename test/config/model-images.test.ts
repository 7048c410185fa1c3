import { describe, expect, it } from 'vitest';
import { takesImages } from '../../src/config/model-profiles.js';

describe('which models take images', () => {
  it('vision families do, behind provider or cloud prefixes too', () => {
    for (const model of [
      'claude-sonnet-4-5',
      'anthropic/claude-opus-4-1',
      'us.anthropic.claude-3-7-sonnet',
      'gpt-4o',
      'gpt-5-mini',
      'o3',
      'gemini-2.5-pro',
      'qwen2.5-vl-7b',
      'llama-3.2-11b-vision',
    ])
      expect(takesImages(model), model).toBe(true);
  });

  it('text-only and unknown models do not', () => {
    for (const model of ['deepseek-chat', 'qwen2.5-coder-32b', 'llama-3.1-70b', 'my-local-model', 'o1x'])
      expect(takesImages(model), model).toBe(false);
  });
});

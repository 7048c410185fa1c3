import { describe, expect, it } from 'vitest';
import { TOOL_PROTOCOL_HINT, withToolProtocolHint } from '../../src/loop/tool-protocol-hint.js';
import { ProviderError } from '../../src/providers/provider-error.js';

describe('a server refusing native tools', () => {
  it('gets the hint on a bad request that names tools or function calling, in one line', () => {
    const refusals = [
      'The API rejected the request (400): tools: Extra inputs are not permitted.',
      'The OpenAI-compatible API at localhost:11434 rejected the request (400): registry.ollama.ai/library/llama2 does not support tools',
      'The OpenAI-compatible API rejected the request (400): "auto" tool choice requires --enable-auto-tool-choice',
      'The OpenAI-compatible API rejected the request (400): function calling is not supported by this model',
    ];
    for (const message of refusals) {
      const line = withToolProtocolHint(new ProviderError('bad_request', message, { status: 400 }));
      expect(line.endsWith(TOOL_PROTOCOL_HINT)).toBe(true);
      expect(line).not.toContain('\n');
      expect(line).toContain('--tool-protocol text');
    }
  });

  it('leaves other failures as they are', () => {
    const other = new ProviderError('bad_request', 'max_tokens: must be at most 8192', { status: 400 });
    expect(withToolProtocolHint(other)).toBe(other.message);
    const overloaded = new ProviderError('overloaded', 'tool servers overloaded', { status: 529 });
    expect(withToolProtocolHint(overloaded)).toBe(overloaded.message);
  });
});

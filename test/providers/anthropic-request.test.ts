import { describe, expect, it } from 'vitest';
import { toMessageParams } from '../../src/providers/anthropic-request.js';
import type { ModelRequest } from '../../src/providers/types.js';

const base: ModelRequest = { model: 'm', system: [], user: [{ text: 'hi' }], maxTokens: 100 };

function breakpoints(request: ModelRequest): string[] {
  const params = toMessageParams(request);
  const system = Array.isArray(params.system) ? params.system : [];
  const first = params.messages[0];
  const user = first && Array.isArray(first.content) ? first.content : [];
  return [...system, ...user].flatMap((block) => (block.type === 'text' && block.cache_control ? [block.text] : []));
}

describe('toMessageParams', () => {
  it('keeps only the last four cache breakpoints across system and user blocks', () => {
    const request: ModelRequest = {
      ...base,
      system: [
        { text: 's1', cacheBreakpoint: true },
        { text: 's2', cacheBreakpoint: true },
      ],
      user: [
        { text: 'u1', cacheBreakpoint: true },
        { text: 'u2' },
        { text: 'u3', cacheBreakpoint: true },
        { text: 'u4', cacheBreakpoint: true },
      ],
    };
    expect(breakpoints(request)).toEqual(['s2', 'u1', 'u3', 'u4']);
  });

  it('drops empty segments and moves their breakpoint to the previous block', () => {
    const params = toMessageParams({
      ...base,
      user: [{ text: 'a' }, { text: '', cacheBreakpoint: true }, { text: 'b' }],
    });
    expect(params.messages[0]?.content).toEqual([
      { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'b' },
    ]);
  });

  it('never sends an empty user message or an empty system list', () => {
    const params = toMessageParams({ ...base, user: [{ text: '' }] });
    expect(params.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: '(no input)' }] }]);
    expect(params.system).toBeUndefined();
  });

  it('passes temperature only when set and drops blank stop sequences', () => {
    expect(toMessageParams(base)).not.toHaveProperty('temperature');
    expect(toMessageParams(base)).not.toHaveProperty('stop_sequences');
    const params = toMessageParams({ ...base, temperature: 0, stopSequences: [' ', '\nObservation:'] });
    expect(params.temperature).toBe(0);
    expect(params.stop_sequences).toEqual(['\nObservation:']);
    expect(params.stream).toBe(true);
  });
});

describe('toMessageParams over a long turn', () => {
  it('maps messages it has seen before exactly as fresh ones, breakpoints and tail included', () => {
    const call = (id: string) => ({ id, name: 'Read', input: { path: `${id}.txt` } });
    const turn: NonNullable<ModelRequest['turn']> = [];
    for (let step = 0; step < 6; step += 1) {
      turn.push({ role: 'assistant', text: step % 2 === 0 ? `step ${step}` : '', calls: [call(`t${step}`)] });
      turn.push({ role: 'user', results: [{ id: `t${step}`, content: `out ${step}`, isError: false }], text: 'note' });
      // The newest user message carries the breakpoint; the older ones, seen in earlier requests, do not.
      const sent = turn.map((message, index) =>
        index === turn.length - 1 && message.role === 'user' ? { ...message, cacheBreakpoint: true } : message,
      );
      const request: ModelRequest = {
        ...base,
        system: [{ text: 's', cacheBreakpoint: true }],
        turn: sent,
        tail: [{ text: '# Todo recap' }],
      };
      const fresh: ModelRequest = { ...request, turn: structuredClone(sent) };
      expect(JSON.stringify(toMessageParams(request))).toBe(JSON.stringify(toMessageParams(fresh)));
    }
  });
});

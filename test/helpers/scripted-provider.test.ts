import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/providers/provider-error.js';
import { complete, type ModelRequest, type StreamEvent } from '../../src/providers/types.js';
import { act, fail, finish, reply, ScriptedProvider } from './scripted-provider.js';

const request: ModelRequest = {
  model: 'm',
  system: [{ text: 'sys' }],
  user: [{ text: 'question' }],
  maxTokens: 100,
  stopSequences: ['\nObservation:'],
};
const signal = (): AbortSignal => new AbortController().signal;

async function drain(provider: ScriptedProvider, abort?: AbortSignal): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of provider.stream(request, abort ?? signal())) events.push(event);
  return events;
}

describe('ScriptedProvider', () => {
  it('streams a reply in several deltas, then done with usage, and records the request', async () => {
    const provider = new ScriptedProvider([reply('hello world', { inputTokens: 7, cacheReadInputTokens: 3 })]);
    const events = await drain(provider);
    expect(events.filter((event) => event.type === 'text').length).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({
      type: 'done',
      stopReason: 'end_turn',
      usage: { inputTokens: 7, outputTokens: 3, cacheCreationInputTokens: 0, cacheReadInputTokens: 3 },
    });
    expect(provider.requests).toEqual([request]);
  });

  it('formats act and finish in the ReAct protocol and honours the stop sequence', async () => {
    expect(act('Read', { path: 'a.ts' }, 'look').text).toBe('Thought: look\nAction: Read[{"path":"a.ts"}]');
    expect(finish('all good').text).toBe('Thought: done\nAction: Finish[all good]');
    const provider = new ScriptedProvider([reply('Thought: x\nAction: LS[{}]\nObservation: made up')]);
    const result = await complete(provider, request, signal());
    expect(result.text).toBe('Thought: x\nAction: LS[{}]');
    expect(result.stopReason).toBe('stop_sequence');
  });

  it('throws scripted errors, optionally after partial text', async () => {
    const provider = new ScriptedProvider([
      fail('overloaded', 'busy', 529),
      { error: new ProviderError('network', 'cut'), partialText: 'Thou' },
    ]);
    await expect(drain(provider)).rejects.toMatchObject({ kind: 'overloaded', status: 529 });
    const events: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of provider.stream(request, signal())) events.push(event);
      })(),
    ).rejects.toMatchObject({ kind: 'network' });
    expect(events.map((event) => (event.type === 'text' ? event.text : '')).join('')).toBe('Thou');
  });

  it('answers function steps from the request', async () => {
    const provider = new ScriptedProvider([(req, call) => reply(`${req.user[0]?.text ?? ''} #${call}`)]);
    expect((await complete(provider, request, signal())).text).toBe('question #1');
  });

  it('hangs until aborted, then throws aborted', async () => {
    const provider = new ScriptedProvider([{ hang: true }]);
    const controller = new AbortController();
    const pending = drain(provider, controller.signal);
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('fails loudly when the script is exhausted', async () => {
    const provider = new ScriptedProvider([finish('x')]);
    await drain(provider);
    await expect(drain(provider)).rejects.toThrow('ScriptedProvider: script exhausted at call 2');
    expect(provider.calls).toBe(2);
  });
});

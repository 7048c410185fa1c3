/**
 * How the loop treats real replies, asserted on what the next request carries and what runs (issue 10):
 * Finish answers with Markdown "Action" lines and quoted actions, replies cut at the output limit, narrated next
 * steps, a giant Write kept once in history, the todo recap, and `/model` reaching every place it matters.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORED_ACTION_LIMITS } from '../../src/context/stored-action.js';
import { createHarness, lastTurnEnd, systemText, userText } from '../helpers/agent-harness.js';
import { act, finish, reply } from '../helpers/scripted-provider.js';

describe('Finish answers are verbatim and run nothing', () => {
  it('a Markdown answer with "Action:" lines and a quoted Bash action is the answer; no tool runs', async () => {
    const answer =
      'Done. Next steps:\n- **Action:** run the tests again\nAction: rename it\n' +
      'For reference the agent could write:\nAction: Bash[{"command": "touch pwned.txt"}]';
    const h = await createHarness([reply(`Thought: summarise\nAction: Finish[${answer}]`)]);
    const events = await h.turn('what next?');
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'finish', answer });
    expect(events.some((event) => event.type === 'tool_start')).toBe(false);
    expect(existsSync(join(h.projectRoot, 'pwned.txt'))).toBe(false);
    expect(h.provider.calls).toBe(1);
  });
});

describe('JSON as models write it', () => {
  it('raw newlines in a string are repaired and run; 10,000-deep nesting is a clear INVALID_PARAM', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const h = await createHarness([
      reply('Thought: write\nAction: Write[{"path": "notes.txt", "content": "first line\nsecond line\n"}]'),
      reply(`Action: Bash[{"command": ${deep}}]`),
      finish('ok'),
    ]);
    const end = lastTurnEnd(await h.turn('go'));
    expect(end).toMatchObject({ reason: 'finish', answer: 'ok' });
    expect(readFileSync(join(h.projectRoot, 'notes.txt'), 'utf8')).toBe('first line\nsecond line\n');
    expect(userText(h.provider.requests[2])).toContain(
      'Observation: Error [INVALID_PARAM]: Invalid action: the action input is nested more than 64 levels deep.',
    );
  });
});

describe('the output limit is visible to the model', () => {
  it('a reply cut at max_tokens is explained, not run; three in a row end the turn with OUTPUT_LIMIT', async () => {
    const cut = {
      text: `Thought: write it\nAction: Write[{"path": "big.txt", "content": "${'a'.repeat(5_000)}`,
      stopReason: 'max_tokens' as const,
    };
    const h = await createHarness([cut, cut, cut]);
    const end = lastTurnEnd(await h.turn('write a big file'));
    expect(end).toMatchObject({ reason: 'error', error: { code: 'OUTPUT_LIMIT' } });
    expect(existsSync(join(h.projectRoot, 'big.txt'))).toBe(false);
    const second = userText(h.provider.requests[1]);
    expect(second).toContain(`cut off at the output limit (${h.config.maxOutputTokens} tokens)`);
    expect(second).toContain('write a large file in parts');
    expect(second).not.toContain('never closed');
    // The cut reply is stored shortened, not 5,000 characters of "a" per step.
    expect(second.length).toBeLessThan(h.provider.requests[0]!.user.map((s) => s.text).join('').length + 4_000);
  });

  it('a complete action before the cut still runs (the cut fell in trailing text)', async () => {
    const h = await createHarness([
      { text: 'Action: Write[{"path": "ok.txt", "content": "fine"}]\nNow I will expl', stopReason: 'max_tokens' },
      finish('done'),
    ]);
    expect(lastTurnEnd(await h.turn('go')).reason).toBe('finish');
    expect(readFileSync(join(h.projectRoot, 'ok.txt'), 'utf8')).toBe('fine');
  });

  it('the default output limit is 32,000 tokens and is what the request asks for', async () => {
    const h = await createHarness([finish('ok')]);
    await h.turn('hi');
    expect(h.config.maxOutputTokens).toBe(32_000);
    expect(h.provider.requests[0]?.maxTokens).toBe(32_000);
  });
});

describe('a narrated next step', () => {
  it('gets one nudge; the model then acts', async () => {
    const h = await createHarness([
      reply('Thought: I will now read the config…'),
      act('LS', { path: '.' }),
      finish('listed'),
    ]);
    const end = lastTurnEnd(await h.turn('look around'));
    expect(end).toMatchObject({ reason: 'finish', answer: 'listed' });
    expect(userText(h.provider.requests[1])).toContain('Your reply had a Thought but no Action');
  });

  it('is accepted as the answer when the model narrates again after the nudge', async () => {
    const h = await createHarness([reply('Thought: The answer is 42.'), reply('Thought: It is 42, as I said.')]);
    const end = lastTurnEnd(await h.turn('question'));
    expect(end).toMatchObject({ reason: 'answer', answer: 'It is 42, as I said.' });
    expect(h.provider.calls).toBe(2);
  });

  it('a reply with no protocol markers is the answer at once', async () => {
    const h = await createHarness([reply('Just the answer.')]);
    expect(lastTurnEnd(await h.turn('q'))).toMatchObject({ reason: 'answer', answer: 'Just the answer.' });
    expect(h.provider.calls).toBe(1);
  });
});

describe('a giant Write is kept once, small', () => {
  it('history stores size + head/tail in the text and in metadata.action; the file is whole on disk', async () => {
    const content = `${'line of generated content\n'.repeat(15_000)}THE END\n`; // ≈ 400,000 chars
    const h = await createHarness([act('Write', { path: 'gen.txt', content }), finish('written'), finish('next')]);
    await h.turn('generate the file');
    expect(readFileSync(join(h.projectRoot, 'gen.txt'), 'utf8')).toBe(content);
    const stored = h.agent.history();
    const total = stored.reduce(
      (sum, message) => sum + message.content.length + JSON.stringify(message.metadata).length,
      0,
    );
    expect(total).toBeLessThan(12_000);
    const step = stored.find((message) => message.role === 'assistant' && message.metadata.action);
    const input = step?.metadata.action?.input as { content: string };
    expect(input.content.length).toBeLessThan(STORED_ACTION_LIMITS.stringChars);
    expect(input.content).toMatch(/^line of generated content\n/);
    expect(input.content).toMatch(/chars omitted in history/);
    expect(input.content).toMatch(/THE END\n$/);
    // The next turn's request carries the round, small.
    await h.turn('and now?');
    const next = userText(h.provider.requests.at(-1));
    expect(next).toContain('# Request\n\ngenerate the file');
    expect(next.length).toBeLessThan(15_000);
  });
});

describe('the todo recap', () => {
  it('is in the prompt while work is open and left out once every todo is completed', async () => {
    const h = await createHarness([
      act('TodoWrite', { todos: [{ content: 'fix', status: 'in_progress' }] }),
      finish('started'),
      act('TodoWrite', { todos: [{ content: 'fix', status: 'completed' }] }),
      finish('all done'),
      finish('unrelated'),
    ]);
    await h.turn('plan');
    expect(userText(h.provider.requests[1])).toContain('# Todo recap\n\n[0/1] done · now: fix');
    await h.turn('finish it');
    await h.turn('something unrelated');
    expect(userText(h.provider.requests.at(-1))).not.toContain('# Todo recap');
  });
});

describe('/model applies everywhere', () => {
  it('requests, the environment block, the summary model when unset, and new or resumed sessions', async () => {
    const h = await createHarness(
      [
        finish('one'),
        finish('two'),
        finish('three'),
        { text: '## 📌 Archived Session Summary\nold rounds' },
        finish('four'),
      ],
      { env: { MCA_MODEL: 'model-a', MCA_CONTEXT_WINDOW: '12000', MCA_MIN_RETAIN_ROUNDS: '1' } },
    );
    h.agent.setModel('model-b');
    for (const word of ['one', 'two', 'three']) await h.turn(`${word} ${'x'.repeat(3_000)}`);
    const turn = await h.turn(`four ${'y'.repeat(12_000)}`);
    expect(turn.some((event) => event.type === 'compaction_end')).toBe(true);
    const [first, , , summary] = h.provider.requests;
    expect(first?.model).toBe('model-b');
    expect(systemText(first)).toContain('- Model: model-b');
    expect(systemText(first)).not.toContain('model-a');
    expect(summary?.model).toBe('model-b');
    // Resume (`/resume`) and a new session (`/clear`) keep the chosen model.
    const resumed = await h.sessions.resume(h.agent.sessionId);
    expect(resumed.model).toBe('model-b');
    const fresh = await h.sessions.newSession();
    expect(fresh.model).toBe('model-b');
  });
});

describe('every request is measured before it is sent', () => {
  const promptChars = (request: Parameters<typeof userText>[0]) =>
    userText(request).length + systemText(request).length;

  it('a request that would exceed the window is compacted first, then sent under it', async () => {
    // Usage reports say the prompt is tiny, so only the measurement before sending can notice the size.
    const tiny = { inputTokens: 10, outputTokens: 1 };
    const h = await createHarness(
      [
        reply('Thought: done\nAction: Finish[one]', tiny),
        reply('Thought: done\nAction: Finish[two]', tiny),
        { text: '## 📌 Archived Session Summary\nrounds one and two' },
        finish('three'),
      ],
      { env: { MCA_CONTEXT_WINDOW: '13500', MCA_COMPRESSION_THRESHOLD: '1', MCA_MIN_RETAIN_ROUNDS: '1' } },
    );
    // L1 ≈ 6.5k tokens; each input ≈ 2.5k tokens: the third request would be ≈ 14k tokens, over the 13.5k window.
    await h.turn(`one ${'a'.repeat(7_500)}`);
    await h.turn(`two ${'b'.repeat(7_500)}`);
    const events = await h.turn(`three ${'c'.repeat(7_500)}`);
    expect(events).toContainEqual(expect.objectContaining({ type: 'compaction_start', reason: 'emergency' }));
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'finish', answer: 'three' });
    // Prompt and reply room together fit the window, as the API demands (else it answers 400).
    for (const request of h.provider.requests) {
      expect(Math.floor(promptChars(request) / 3) + request.maxTokens).toBeLessThanOrEqual(13_500);
    }
  });

  it('when nothing can make it fit, the turn ends with CONTEXT_TOO_LARGE and nothing is sent', async () => {
    const h = await createHarness([finish('never')], { env: { MCA_CONTEXT_WINDOW: '4000' } });
    const end = lastTurnEnd(await h.turn(`an input far larger than the window ${'z'.repeat(30_000)}`));
    expect(end).toMatchObject({ reason: 'error', error: { code: 'CONTEXT_TOO_LARGE' } });
    expect(end.answer).toMatch(/more than the context window \(4000\).*nothing was sent/);
    expect(h.provider.calls).toBe(0);
    expect(h.agent.history().at(-1)?.metadata.roundEnd).toBe('error');
  });
});

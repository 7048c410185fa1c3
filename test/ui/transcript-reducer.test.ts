import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/events.js';
import { initialTranscript, transcriptReducer } from '../../src/ui/transcript-reducer.js';
import type { TranscriptState } from '../../src/ui/transcript-state.js';
import { envelope, turnEnd, turnStart } from './fake-controller.js';

function play(events: AgentEvent[], state: TranscriptState = initialTranscript()): TranscriptState {
  return events.reduce((current, event) => transcriptReducer(current, { type: 'event', event }), state);
}

function kinds(state: TranscriptState): string[] {
  return state.items.map((item) => item.kind);
}

describe('transcriptReducer', () => {
  it('streams text into the live area, then writes the answer once', () => {
    const streaming = play([
      turnStart('hi'),
      { type: 'step_start', step: 1, estimatedTokens: 10 },
      { type: 'text_delta', step: 1, text: 'Hel' },
      { type: 'text_delta', step: 1, text: 'lo' },
    ]);
    expect(streaming.live.running).toBe(true);
    expect(streaming.live.streamText).toBe('Hello');
    expect(streaming.items).toEqual([]);
    const done = play(
      [{ type: 'assistant_step', step: 1, thought: '', action: null, raw: 'Hello' }, turnEnd('answer', 'Hello')],
      streaming,
    );
    expect(done.items).toEqual([{ id: 1, kind: 'answer', text: 'Hello' }]);
    expect(done.live.running).toBe(false);
  });

  it('writes extended thinking once, dimmed, before what the step then does', () => {
    const state = play([
      turnStart('hi'),
      { type: 'step_start', step: 1, estimatedTokens: 10 },
      { type: 'thinking_delta', step: 1, text: 'Maybe read ' },
      { type: 'thinking_delta', step: 1, text: 'a.ts.' },
      { type: 'text_delta', step: 1, text: 'Hello' },
      { type: 'assistant_step', step: 1, thought: '', action: null, raw: 'Hello' },
      turnEnd('answer', 'Hello'),
    ]);
    expect(state.items).toEqual([
      { id: 1, kind: 'notice', tone: 'dim', text: 'Thinking: Maybe read a.ts.' },
      { id: 2, kind: 'answer', text: 'Hello' },
    ]);
  });

  it('native tool use: streams plain text as the answer block by block, and text before calls is not repeated', () => {
    const native = { type: 'step_start' as const, step: 1, estimatedTokens: 10, native: true };
    const streaming = play([
      turnStart('hi'),
      native,
      { type: 'text_delta', step: 1, text: 'Reading the two files.\n\nThen ' },
    ]);
    expect(streaming.items).toEqual([{ id: 1, kind: 'answer', text: 'Reading the two files.\n\n' }]);
    const called = play(
      [
        {
          type: 'assistant_step',
          step: 1,
          thought: 'Reading the two files.\n\nThen fixing.',
          action: { tool: 'Read', input: { path: 'a.ts' } },
          raw: '',
        },
      ],
      streaming,
    );
    expect(called.items.slice(1)).toEqual([{ id: 2, kind: 'answer', text: 'Then fixing.', continued: true }]);
    const answered = play(
      [
        { ...native, step: 2 },
        { type: 'text_delta', step: 2, text: '# Done\n\nAll ' },
        { type: 'text_delta', step: 2, text: 'good.' },
        { type: 'assistant_step', step: 2, thought: '', action: null, raw: '# Done\n\nAll good.' },
        turnEnd('answer', '# Done\n\nAll good.'),
      ],
      called,
    );
    expect(answered.items.slice(2)).toEqual([
      { id: 3, kind: 'answer', text: '# Done\n\n' },
      { id: 4, kind: 'answer', text: 'All good.', continued: true },
    ]);
  });

  it('records a thought and a tool call with its result', () => {
    const result = envelope({ path: 'a.ts', start_line: 1, end_line: 3, total_lines: 3, content: '' });
    const state = play([
      turnStart('read a'),
      { type: 'step_start', step: 1, estimatedTokens: 10 },
      { type: 'text_delta', step: 1, text: 'Thought: read it\nAction: Read[{"path":"a.ts"}]' },
      {
        type: 'assistant_step',
        step: 1,
        thought: 'read it',
        action: { tool: 'Read', input: { path: 'a.ts' } },
        raw: '',
      },
      { type: 'tool_start', step: 1, id: 'toolu_a', tool: 'Read', input: { path: 'a.ts' } },
    ]);
    expect(state.live.tools).toEqual([{ id: 'toolu_a', tool: 'Read', input: { path: 'a.ts' } }]);
    const ended = play(
      [{ type: 'tool_end', step: 1, id: 'toolu_a', tool: 'Read', input: { path: 'a.ts' }, result, compressed: '{}' }],
      state,
    );
    expect(kinds(ended)).toEqual(['thought', 'tool']);
    expect(ended.live.tools).toEqual([]);
  });

  it('keeps concurrent calls apart: each is live until its own tool_end, matched by id', () => {
    const input = (path: string) => ({ path });
    const running = play([
      turnStart('go'),
      { type: 'step_start', step: 1, estimatedTokens: 10, native: true },
      { type: 'tool_start', step: 1, id: 'toolu_a', tool: 'Read', input: input('a.ts') },
      { type: 'tool_start', step: 1, id: 'toolu_b', tool: 'Read', input: input('b.ts') },
    ]);
    expect(running.live.tools.map((call) => call.id)).toEqual(['toolu_a', 'toolu_b']);
    const result = envelope({ path: 'a.ts', start_line: 1, end_line: 3, total_lines: 3, content: '' });
    const resultOf = (text: string) => ({ ...result, text });
    // The second call ends first: the first one stays live, and each entry carries its own input and result.
    const oneDone = play(
      [
        {
          type: 'tool_end',
          step: 1,
          id: 'toolu_b',
          tool: 'Read',
          input: input('b.ts'),
          result: resultOf('B'),
          compressed: '{}',
        },
      ],
      running,
    );
    expect(oneDone.live.tools.map((call) => call.id)).toEqual(['toolu_a']);
    const bothDone = play(
      [
        {
          type: 'tool_end',
          step: 1,
          id: 'toolu_a',
          tool: 'Read',
          input: input('a.ts'),
          result: resultOf('A'),
          compressed: '{}',
        },
      ],
      oneDone,
    );
    expect(bothDone.live.tools).toEqual([]);
    const tools = bothDone.items.flatMap((item) => (item.kind === 'tool' ? [[item.input, item.result.text]] : []));
    expect(tools).toEqual([
      [input('b.ts'), 'B'],
      [input('a.ts'), 'A'],
    ]);
  });

  it('shows a Finish thought before the answer unless it repeats it', () => {
    const finish = (thought: string): TranscriptState =>
      play([
        turnStart('q'),
        { type: 'step_start', step: 1, estimatedTokens: 1 },
        { type: 'assistant_step', step: 1, thought, action: null, raw: '' },
        turnEnd('finish', 'The answer'),
      ]);
    expect(kinds(finish('I know this'))).toEqual(['thought', 'answer']);
    expect(kinds(finish('The answer'))).toEqual(['answer']);
  });

  it('shows errors with their code', () => {
    const state = play([
      turnStart('q'),
      {
        type: 'turn_end',
        reason: 'error',
        answer: 'boom',
        steps: 1,
        usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
        error: { code: 'PROVIDER_AUTH', message: 'bad key' },
      },
    ]);
    expect(state.items.at(-1)).toMatchObject({ kind: 'notice', tone: 'error', text: 'Error PROVIDER_AUTH: bad key' });
  });

  it('keeps the partial thought and says Interrupted on an interrupt', () => {
    const state = play([
      turnStart('q'),
      { type: 'step_start', step: 1, estimatedTokens: 1 },
      { type: 'text_delta', step: 1, text: 'Thought: half way' },
      turnEnd('interrupted', 'Interrupted by user.'),
    ]);
    expect(state.items.map((item) => ('text' in item ? item.text : item.kind))).toEqual(['half way', 'Interrupted']);
    expect(state.live.running).toBe(false);
  });

  it('shows compaction progress, then the result line', () => {
    const started = play([
      { type: 'compaction_start', reason: 'threshold', tokensBefore: 170_000, roundsToArchive: 8 },
    ]);
    expect(started.live.compacting).toEqual({ reason: 'threshold', tokensBefore: 170_000, roundsToArchive: 8 });
    const done = play(
      [
        {
          type: 'compaction_end',
          reason: 'threshold',
          outcome: 'summary',
          tokensBefore: 170_000,
          tokensAfter: 30_000,
          roundsKept: 10,
          roundsArchived: 8,
        },
      ],
      started,
    );
    expect(done.live.compacting).toBeNull();
    expect(done.items[0]).toMatchObject({
      kind: 'notice',
      text: '✻ Conversation compacted: 170,000 → 30,000 tokens · 10 rounds kept · 8 archived',
    });
    expect(done.contextTokens).toBe(30_000);
  });

  it('shows the exact fallback message of a failed summary', () => {
    const message = 'Summary generation timed out, keeping recent history only.';
    const state = play([
      { type: 'compaction_start', reason: 'threshold', tokensBefore: 1, roundsToArchive: 1 },
      {
        type: 'compaction_end',
        reason: 'threshold',
        outcome: 'timeout',
        tokensBefore: 1,
        tokensAfter: 1,
        roundsKept: 10,
        roundsArchived: 1,
        message,
      },
    ]);
    expect(state.items[0]).toMatchObject({ kind: 'notice', tone: 'warning', text: message });
  });

  it('shows retries, warnings and degrade steps', () => {
    const state = play([
      { type: 'retry', step: 1, attempt: 2, delayMs: 1500, reason: 'overloaded' },
      { type: 'warning', message: 'careful' },
      { type: 'degrade', level: 2, message: 'older tool results shrunk' },
    ]);
    expect(state.items.map((item) => ('text' in item ? item.text : ''))).toEqual([
      'Retrying in 2s (attempt 2): overloaded',
      'careful',
      'Context degraded (level 2): older tool results shrunk',
    ]);
  });

  it('tracks context tokens and turn output tokens from usage', () => {
    const state = play([
      turnStart('q'),
      {
        type: 'usage',
        step: 1,
        usage: { inputTokens: 10, outputTokens: 42, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
        contextTokens: 12_345,
      },
    ]);
    expect(state.contextTokens).toBe(12_345);
    expect(state.live.turnTokens).toBe(42);
  });

  it('lists mentions and ends a stopped run without a turn_end', () => {
    const state = transcriptReducer(play([turnStart('q', ['src/a.ts'])]), { type: 'stopped', message: 'Interrupted' });
    expect(state.items.map((item) => ('text' in item ? item.text : ''))).toEqual([
      'Mentioned @src/a.ts',
      'Interrupted',
    ]);
    expect(state.live.running).toBe(false);
  });
});

describe('transcriptReducer: a streaming answer', () => {
  const delta = (text: string): AgentEvent => ({ type: 'text_delta', step: 1, text });

  it('writes each complete block as it arrives, after the thought, and only the rest at the end', () => {
    const start = play([turnStart('q'), { type: 'step_start', step: 1, estimatedTokens: 1 }]);
    const early = play(
      [delta('Thought: I know.\nAction: Finish[# Title\n\nFirst para'), delta('graph.\n\nSecond')],
      start,
    );
    expect(early.items.map((item) => [item.kind, 'text' in item ? item.text : ''])).toEqual([
      ['thought', 'I know.'],
      // "First paragraph." is the block still growing until a later block starts.
      ['answer', '# Title\n\n'],
    ]);
    const more = play([delta(' paragraph here.\n\nThird one.]')], early);
    expect(more.items).toHaveLength(3);
    expect(more.items[2]).toMatchObject({
      kind: 'answer',
      text: 'First paragraph.\n\nSecond paragraph here.\n\n',
      continued: true,
    });
    const done = play(
      [
        { type: 'assistant_step', step: 1, thought: 'I know.', action: null, raw: '' },
        turnEnd('finish', '# Title\n\nFirst paragraph.\n\nSecond paragraph here.\n\nThird one.'),
      ],
      more,
    );
    expect(kinds(done)).toEqual(['thought', 'answer', 'answer', 'answer']);
    expect(done.items[3]).toMatchObject({ kind: 'answer', text: 'Third one.', continued: true });
    expect(done.live.running).toBe(false);
  });

  it('writes the whole answer when the final one does not continue what was shown', () => {
    const shown = play([
      turnStart('q'),
      { type: 'step_start', step: 1, estimatedTokens: 1 },
      delta('Thought: x\nAction: Finish[Alpha block.\n\nBeta'),
    ]);
    const done = play([turnEnd('finish', 'Something else entirely.')], shown);
    expect(done.items.at(-1)).toMatchObject({ kind: 'answer', text: 'Something else entirely.' });
    expect(done.items.at(-1)).not.toHaveProperty('continued');
  });

  it('shows control sequences in answers, thoughts and notices visibly', () => {
    const state = play([
      turnStart('q'),
      { type: 'warning', message: 'bad \x1b]2;title\x07 thing' },
      { type: 'assistant_step', step: 1, thought: 'think \x1b[8mhidden', action: null, raw: '' },
      turnEnd('finish', 'answer \x1b]52;c;aGk=\x07'),
    ]);
    const texts = state.items.map((item) => ('text' in item ? item.text : ''));
    expect(texts.join('\n')).not.toContain('\x1b');
    expect(texts).toContain('bad ␛]2;title␇ thing');
    expect(texts).toContain('think ␛[8mhidden');
  });
});

describe('the first items (the header naming the model, replayed history)', () => {
  it('are neutralised like every later notice', () => {
    const state = initialTranscript([
      { kind: 'notice', tone: 'dim', text: 'mca · claude\u001b]52;c;cm0=\u0007 · session 1234' },
      { kind: 'user', text: 'hi\u009b2J' },
    ]);
    const texts = state.items.map((item) => ('text' in item ? item.text : ''));
    expect(texts).toEqual(['mca · claude␛]52;c;cm0=␇ · session 1234', 'hi<U+009B>2J']);
  });
});

describe('an answer whose save failed', () => {
  it('is shown, then the write failure', () => {
    const state = play([
      turnStart('hi'),
      {
        type: 'turn_end',
        reason: 'error',
        answer: 'The turn failed: cannot write session file s.jsonl: no space left on the device (ENOSPC)',
        steps: 1,
        usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
        error: { code: 'SESSION_WRITE_FAILED', message: 'The turn failed: cannot write session file s.jsonl' },
        unsavedAnswer: 'THE ANSWER',
      },
    ]);
    const texts = state.items.map((item) => ('text' in item ? item.text : ''));
    expect(texts.indexOf('THE ANSWER')).toBeGreaterThanOrEqual(0);
    expect(texts.at(-1)).toMatch(/^Error SESSION_WRITE_FAILED: The turn failed: cannot write session file/);
  });
});

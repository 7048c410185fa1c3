import { describe, expect, it } from 'vitest';
import { transcriptChars } from '../../src/context/compaction.js';
import type { Message } from '../../src/context/message.js';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { retainWithinBudget, shrinkReadAround } from '../../src/context/retention.js';

const TS = '2026-01-01T00:00:00.000Z';
const FILE = Array.from({ length: 40 }, (_, at) => `${at + 1}\tconst value${at} = compute(${at});`).join('\n');

function read(round: number, path: string, ref: string): Message {
  const data = { path, start_line: 1, end_line: 40, total_lines: 40, content: FILE };
  return {
    role: 'tool',
    content: JSON.stringify({ status: 'success', ref, data }),
    metadata: { round, step: 1, ts: TS, toolName: 'Read', action: { tool: 'Read', input: { path } } },
  };
}

function round(number: number, tools: Message[]): Message[] {
  const steps = tools.flatMap((tool, at) => [
    {
      role: 'assistant' as const,
      content: 'Thought: next',
      metadata: {
        round: number,
        step: at + 1,
        ts: TS,
        ...(tool.metadata.action ? { action: tool.metadata.action } : {}),
      },
    },
    { ...tool, metadata: { ...tool.metadata, round: number, step: at + 1 } },
  ]);
  return [
    { role: 'user', content: `request ${number}`, metadata: { round: number, ts: TS } },
    ...steps,
    { role: 'assistant', content: 'done', metadata: { round: number, step: 9, ts: TS, roundEnd: 'answer' } },
  ];
}

const edit: Message = {
  role: 'tool',
  content: '{"status":"success","data":{"path":"a.ts","applied":true}}',
  metadata: {
    round: 0,
    step: 1,
    ts: TS,
    toolName: 'Edit',
    action: {
      tool: 'Edit',
      input: { path: 'a.ts', old_string: 'const value20 = compute(20);', new_string: 'const value20 = 0;' },
    },
  },
};

describe('token-budgeted retention', () => {
  const history = [
    ...round(1, [read(1, 'a.ts', 'r_a'), read(1, 'b.ts', 'r_b')]),
    ...round(2, [edit]),
    ...round(3, [read(3, 'c.ts', 'r_c')]),
  ];

  it('shrinks the stale Read first, keeping the lines around the later edit and its reference', () => {
    const full = Math.floor(transcriptChars(history) / 3);
    const { messages, shrunk } = retainWithinBudget(history, full - 10);
    expect(shrunk).toBe(1);
    const stale = JSON.parse(messages[2]!.content) as { ref: string; data: { content: string } };
    expect(stale.ref).toBe('r_a');
    expect(stale.data.content).toContain('21\tconst value20 = compute(20);');
    expect(stale.data.content).toContain('18\tconst value17');
    expect(stale.data.content).not.toContain('10\tconst value9 ');
    // b.ts was not changed since: it is not stale, and the budget was met without it.
    expect(messages[4]).toBe(history[4]);
  });

  it('never touches the newest closed round, and leaves a list within budget unchanged', () => {
    const { messages } = retainWithinBudget(history, 0);
    const newest = history.slice(-4);
    expect(messages.slice(-4)).toEqual(newest);
    // b.ts was read in the newest three rounds (the working set) and has no full form to compress from: it stays.
    expect(messages.filter((message) => message.metadata.shrunk).length).toBe(1);
    expect(retainWithinBudget(history, 1_000_000)).toEqual({ messages: history, shrunk: 0 });
  });

  it('gives no anchored form when no line matches', () => {
    expect(shrinkReadAround(read(1, 'a.ts', 'r').content, ['nothing like this line'])).toBeUndefined();
  });
});

describe('a closed round in L3 (engine v4: no forgetting without pressure)', () => {
  it('shows a Read that a later step of its round edited as it was stored, with every line', () => {
    const history = [...round(1, [read(1, 'a.ts', 'r_a'), { ...edit, metadata: { ...edit.metadata, round: 1 } }])];
    const shown =
      new ContextBuilder({ systemPrompt: 'sys' })
        .build({ history, scratchpad: [], question: 'q' })
        .parts.find((part) => part.id === 'l3')?.text ?? '';
    expect(shown).toContain('"ref":"r_a"');
    expect(shown).toContain('10\\tconst value9 ');
  });
});

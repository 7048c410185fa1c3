import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/context/message.js';
import { historyEntries } from '../../src/ui/history-replay.js';

const ts = '2026-11-22T00:00:00.000Z';

function round(n: number, text: string): Message[] {
  return [
    {
      role: 'user',
      content: `${text}\n\n<system-reminder>\nThe user mentioned @a.ts.\n</system-reminder>`,
      metadata: { round: n, ts },
    },
    {
      role: 'assistant',
      content: 'Thought: read it\nAction: Read[{"path": "a.ts"}]',
      metadata: { round: n, step: 1, ts, action: { tool: 'Read', input: { path: 'a.ts' } } },
    },
    {
      role: 'tool',
      content: JSON.stringify({
        status: 'success',
        data: { path: 'a.ts', start_line: 1, end_line: 3, total_lines: 3 },
      }),
      metadata: { round: n, step: 1, ts, toolName: 'Read', action: { tool: 'Read', input: { path: 'a.ts' } } },
    },
    {
      role: 'assistant',
      content: `Thought: done\nAction: Finish[answer ${n}]`,
      metadata: { round: n, step: 2, ts, roundEnd: 'finish' },
    },
  ];
}

describe('historyEntries', () => {
  it('rebuilds user, thought, tool and answer entries without the system reminder', () => {
    const entries = historyEntries(round(1, 'fix it'));
    expect(entries.map((entry) => entry.kind)).toEqual(['user', 'thought', 'tool', 'thought', 'answer']);
    expect(entries[0]).toEqual({ kind: 'user', text: 'fix it' });
    expect(entries[2]).toMatchObject({
      kind: 'tool',
      tool: 'Read',
      input: { path: 'a.ts' },
      result: { status: 'success' },
    });
    expect(entries[4]).toEqual({ kind: 'answer', text: 'answer 1' });
  });

  it('shows only the newest rounds and counts the rest and the summaries', () => {
    const summary: Message = { role: 'summary', content: '## 📌 Archived Session Summary', metadata: { round: 1, ts } };
    const messages = [summary, ...[2, 3, 4].flatMap((n) => round(n, `task ${n}`))];
    const entries = historyEntries(messages, 2);
    expect(entries[0]).toEqual({
      kind: 'notice',
      tone: 'dim',
      text: '… 1 earlier round not shown · 1 archived summary',
    });
    expect(
      entries.filter((entry) => entry.kind === 'user').map((entry) => entry.kind === 'user' && entry.text),
    ).toEqual(['task 3', 'task 4']);
  });

  it('shows an interrupted round as a warning and survives a result that is not JSON', () => {
    const messages: Message[] = [
      { role: 'user', content: 'go', metadata: { round: 1, ts } },
      {
        role: 'assistant',
        content: 'Action: LS[{}]',
        metadata: { round: 1, step: 1, ts, action: { tool: 'LS', input: {} } },
      },
      {
        role: 'tool',
        content: 'not json',
        metadata: { round: 1, step: 1, ts, toolName: 'LS', action: { tool: 'LS', input: {} } },
      },
      {
        role: 'assistant',
        content: '[interrupted] Interrupted by user.',
        metadata: { round: 1, step: 2, ts, roundEnd: 'interrupted' },
      },
    ];
    const entries = historyEntries(messages);
    expect(entries.at(-1)).toEqual({ kind: 'notice', tone: 'warning', text: '[interrupted] Interrupted by user.' });
    expect(entries[1]).toMatchObject({ kind: 'tool', tool: 'LS', result: { status: 'success', data: {} } });
  });
});

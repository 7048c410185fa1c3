import { describe, expect, it } from 'vitest';
import { ContextBuilder } from '../../src/context/context-builder.js';
import type { Message } from '../../src/context/message.js';
import { replyWords } from '../../src/context/transcript.js';

const TS = '2026-01-01T00:00:00.000Z';
const action = { tool: 'Read', input: { path: 'src/a.ts' } };
const ROUND: Message[] = [
  { role: 'user', content: 'what is in a?', metadata: { round: 1, ts: TS } },
  {
    role: 'assistant',
    content: 'Thought: I read it first.\nAction: Read[{"path":"src/a.ts"}]',
    metadata: { round: 1, step: 1, ts: TS, action },
  },
  { role: 'tool', content: '{"status":"success","ref":"r1"}', metadata: { round: 1, step: 1, ts: TS, action } },
  { role: 'assistant', content: 'Action: Read[{"path":"src/a.ts"}]', metadata: { round: 1, step: 2, ts: TS, action } },
  { role: 'tool', content: '{"status":"success"}', metadata: { round: 1, step: 2, ts: TS, action } },
  {
    role: 'assistant',
    content: 'Thought: done\nAction: Finish[It exports a.]',
    metadata: { round: 1, step: 3, ts: TS, roundEnd: 'finish' },
  },
];

describe('L3 in native tool use', () => {
  it('shows the words of each step and labels each result with its call, with no text-protocol form', () => {
    const l3 = (form: 'native' | 'text') =>
      new ContextBuilder({ systemPrompt: 'sys', historyForm: form })
        .build({ history: ROUND, scratchpad: [], question: 'q' })
        .parts.find((part) => part.id === 'l3')?.text ?? '';
    const native = l3('native');
    expect(native).not.toMatch(/Action:|Thought:/);
    expect(native).toContain(
      '[assistant] I read it first.\n\n[tool Read {"path":"src/a.ts"}] {"status":"success","ref":"r1"}',
    );
    // A step with no words of its own shows only its record; a text-protocol Finish shows its answer.
    expect(native).toContain('"ref":"r1"}\n\n[tool Read {"path":"src/a.ts"}] {"status":"success"}');
    expect(native).toContain('[assistant] done\nIt exports a.');
    // The text protocol keeps the E1 transcript.
    expect(l3('text')).toContain('[assistant] Thought: I read it first.\nAction: Read[{"path":"src/a.ts"}]');
  });

  it('keeps a reply without protocol labels as written', () => {
    expect(replyWords('Just prose, no labels.')).toBe('Just prose, no labels.');
    expect(replyWords('**Thought:** look\n**Action:** Grep[{"pattern":"x"}]')).toBe('look');
  });
});

import { describe, expect, it } from 'vitest';
import { ContextBuilder, HEADINGS, type ScratchpadStep } from '../../src/context/context-builder.js';
import { estimateTokens } from '../../src/context/token-budget.js';
import { closedRound, closedRounds, summary } from './history-fixtures.js';

const steps: ScratchpadStep[] = [
  { assistant: 'Thought: a\nAction: LS[{}]', observation: 'FULL-1', compressed: '{"c":1}' },
  { assistant: 'Thought: b\nAction: Read[{}]', observation: 'FULL-2', compressed: '{"c":2}' },
  { assistant: 'Thought: c\nAction: Grep[{}]', observation: 'FULL-3', compressed: '{"c":3}' },
];

function builder(law?: string): ContextBuilder {
  return new ContextBuilder({ systemPrompt: 'SYSTEM PROMPT', memory: { read: () => law } });
}

describe('ContextBuilder', () => {
  it('renders the parts in the fixed order with their headings', () => {
    const history = [summary(1, 1, 'ARCHIVE'), ...closedRound(2)];
    const built = builder('# Project Rules and Memory\n\n## CODE_LAW.md\n\nLAW TEXT').build({
      history,
      scratchpad: steps,
      question: 'QUESTION',
      todoRecap: '[1/2] done · now: x',
    });
    expect(built.parts.map((part) => part.id)).toEqual(['l1', 'l2', 'l3', 'input', 'scratchpad', 'todos']);
    const text = built.render();
    const order = [
      'SYSTEM PROMPT',
      '# Project Rules and Memory\n\n## CODE_LAW.md\n\nLAW TEXT',
      '# Conversation history',
      '[system] ARCHIVE',
      '[user] question 2',
      '[tool] {',
      HEADINGS.input,
      'QUESTION',
      HEADINGS.scratchpad,
      'Observation: FULL-1',
      'Observation: FULL-3',
      '# Todo recap\n\n[1/2] done',
    ];
    const positions = order.map((needle) => text.indexOf(needle));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toContain(
      '[assistant] Thought: step 1\nAction: Read[{"path":"f2.ts"}]\n\n[tool] {"status":"success","data":{}}',
    );
    expect(built.totalTokens).toBe(estimateTokens(text));
    const l3 = built.parts.find((part) => part.id === 'l3');
    expect(l3?.summaryTokens).toBe(estimateTokens('[system] ARCHIVE'));
  });

  it('skips empty parts', () => {
    const built = builder(undefined).build({ history: [], scratchpad: [], question: 'hi' });
    expect(built.parts.map((part) => part.id)).toEqual(['l1', 'input']);
    expect(built.render()).toBe(`SYSTEM PROMPT\n\n${HEADINGS.input}\n\nhi`);
    expect(built.toRequestSegments()).toEqual({
      system: [{ text: 'SYSTEM PROMPT', cacheBreakpoint: true }],
      user: [{ text: `${HEADINGS.input}\n\nhi` }],
    });
  });

  it('places cache breakpoints after L1, after L3 and on the last scratchpad step', () => {
    const built = builder('LAW').build({
      history: closedRound(1),
      scratchpad: steps,
      question: 'Q',
      todoRecap: 'recap',
    });
    const { system, user } = built.toRequestSegments();
    expect(system.map((segment) => segment.cacheBreakpoint === true)).toEqual([true, false]);
    expect(system[1]?.text).toBe('LAW');
    expect(user.map((segment) => segment.cacheBreakpoint === true)).toEqual([true, false, false, false, true, false]);
    expect(user[2]?.text.startsWith(HEADINGS.scratchpad)).toBe(true);
    expect(user[5]?.text).toBe('# Todo recap\n\nrecap');
    const joined = [...system, ...user].map((segment) => segment.text).join('\n\n');
    expect(joined).toBe(built.render());
  });

  it('sends L3 as one block per summary and per closed round, the breakpoint on the last', () => {
    const history = [summary(1, 2), ...closedRounds(3, 4, 1)];
    const built = builder().build({ history, scratchpad: [], question: 'Q' });
    const { user } = built.toRequestSegments();
    const l3Blocks = user.slice(0, 3);
    expect(l3Blocks[0]?.text.startsWith(`${HEADINGS.history}\n\n[system]`)).toBe(true);
    expect(l3Blocks[1]?.text.startsWith('[user]')).toBe(true);
    expect(l3Blocks.map((segment) => segment.cacheBreakpoint === true)).toEqual([false, false, true]);
    expect(l3Blocks.map((segment) => segment.text).join('\n\n')).toBe(built.parts.find((p) => p.id === 'l3')?.text);

    // Closing one more round appends a block: the earlier blocks stay byte-identical (a cacheable prefix).
    const next = builder().build({ history: [...history, ...closedRounds(5, 5, 1)], scratchpad: [], question: 'Q' });
    const nextBlocks = next.toRequestSegments().user.slice(0, 4);
    expect(nextBlocks.slice(0, 3).map((segment) => segment.text)).toEqual(l3Blocks.map((segment) => segment.text));
  });

  it('degradation level 1: only the newest N steps keep full observations', () => {
    const text = builder().build({ history: [], scratchpad: steps, question: 'Q', fullObservationSteps: 1 }).render();
    expect(text).toContain('Action: LS[{}]\nObservation (compressed): {"c":1}');
    expect(text).toContain('Action: Read[{}]\nObservation (compressed): {"c":2}');
    expect(text).toContain('Action: Grep[{}]\nObservation: FULL-3');
    expect(text).not.toContain('FULL-1');
    const all = builder().build({ history: [], scratchpad: steps, question: 'Q' }).render();
    expect(all).toContain('FULL-1');
    expect(all).not.toContain('(compressed)');
  });

  it('renders 10,000 messages linearly', () => {
    const history = closedRounds(1, 2_500, 1);
    expect(history).toHaveLength(10_000);
    const built = builder().build({ history, scratchpad: [], question: 'Q' });
    const text = built.render();
    expect(text.match(/^\[tool\] /gm)).toHaveLength(2_500);
    expect(built.totalTokens).toBe(estimateTokens(text));
  });
});

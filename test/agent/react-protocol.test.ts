import { describe, expect, it } from 'vitest';
import { actionKey, formatAction, normalizeReply, parseReply } from '../../src/agent/react-protocol.js';

describe('parseReply', () => {
  it('parses a thought and a tool action with JSON input', () => {
    const parsed = parseReply('Thought: I need the file.\nAction: Read[{"path": "src/a.ts", "limit": 20}]');
    expect(parsed).toEqual({
      kind: 'action',
      thought: 'I need the file.',
      action: { tool: 'Read', input: { path: 'src/a.ts', limit: 20 } },
      text: 'Thought: I need the file.\nAction: Read[{"path": "src/a.ts", "limit": 20}]',
    });
  });

  it('takes the last Action when the model wrote several', () => {
    const parsed = parseReply('Thought: a\nAction: LS[{}]\nThought: no, better\nAction: Glob[{"pattern": "*.ts"}]');
    expect(parsed.kind).toBe('action');
    if (parsed.kind === 'action') expect(parsed.action).toEqual({ tool: 'Glob', input: { pattern: '*.ts' } });
  });

  it('keeps brackets inside JSON strings and inside a Finish answer', () => {
    const edit = parseReply('Action: Edit[{"path": "a.ts", "old_string": "x[0]", "new_string": "x[1]"}]');
    expect(edit.kind === 'action' && edit.action.input).toEqual({
      path: 'a.ts',
      old_string: 'x[0]',
      new_string: 'x[1]',
    });
    const finish = parseReply('Thought: done\nAction: Finish[Use `arr[0]` here.\nSecond line.]');
    expect(finish).toMatchObject({ kind: 'finish', answer: 'Use `arr[0]` here.\nSecond line.', thought: 'done' });
  });

  it('treats a reply without Action as the final answer, without the Thought label', () => {
    expect(parseReply('Thought: The answer is 42.')).toMatchObject({ kind: 'answer', answer: 'The answer is 42.' });
    expect(parseReply('Plain answer')).toMatchObject({ kind: 'answer', answer: 'Plain answer' });
  });

  it('strips stray <tool_call> tags and anything after an invented Observation', () => {
    const parsed = parseReply('<tool_call>Thought: x\nAction: LS[{"path": "."}]</tool_call>\nObservation: fake output');
    expect(parsed).toMatchObject({ kind: 'action', action: { tool: 'LS', input: { path: '.' } } });
    expect(normalizeReply('a\nObservation: b')).toBe('a');
  });

  it('accepts fenced JSON, parentheses and markdown-bold labels', () => {
    expect(parseReply('Action: Read[```json\n{"path": "a"}\n```]')).toMatchObject({ action: { input: { path: 'a' } } });
    expect(parseReply('**Action:** Read({"path": "a"})')).toMatchObject({ action: { tool: 'Read' } });
  });

  it('reports bad JSON, non-object input, missing brackets and missing names as invalid with a reason', () => {
    const bad = parseReply('Thought: t\nAction: Read[{"path": }]');
    expect(bad.kind).toBe('invalid');
    if (bad.kind === 'invalid') expect(bad.reason).toMatch(/not valid JSON/);
    expect(parseReply('Action: Read[[1,2]]')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/JSON object/),
    });
    expect(parseReply('Action: Read path=a')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/expected "\["/),
    });
    expect(parseReply('Action: [{"a":1}]')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/no tool name/),
    });
    expect(parseReply('Action: Read[{"path": "a"}')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/never closed/),
    });
  });

  it('ignores "Action:" that is not at the start of a line', () => {
    expect(parseReply('The next Action: is up to you.')).toMatchObject({ kind: 'answer' });
  });

  it('accepts an empty object for tools without parameters', () => {
    expect(parseReply('Action: LS[]')).toMatchObject({ kind: 'action', action: { tool: 'LS', input: {} } });
  });
});

describe('formatAction and actionKey', () => {
  it('round-trips through parseReply', () => {
    const action = { tool: 'Grep', input: { pattern: 'a]b', path: 'src' } };
    expect(parseReply(formatAction(action))).toMatchObject({ kind: 'action', action });
    expect(actionKey(action)).toBe(actionKey({ tool: 'Grep', input: { pattern: 'a]b', path: 'src' } }));
  });
});

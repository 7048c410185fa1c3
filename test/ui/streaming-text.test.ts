import { describe, expect, it } from 'vitest';
import { completeBlocks, completeWords, liveAnswer, liveThought } from '../../src/ui/streaming-text.js';

describe('liveThought', () => {
  it('never shows a partial word or a label still arriving', () => {
    expect(liveThought('Though')).toBe('');
    expect(liveThought('Thought:')).toBe('');
    expect(liveThought('Thought: I will rea')).toBe('I will');
    expect(liveThought('**Thought:** look')).toBe('');
  });

  it('shows the whole thought once the action line has started', () => {
    expect(liveThought('Thought: look around\nAction: LS[{}]')).toBe('look around');
    expect(liveThought('Thought: read it\nAction:')).toBe('read it');
  });

  it('shows the complete words of a reply without protocol labels', () => {
    expect(liveThought('A direct answer arriv')).toBe('A direct answer');
  });
});

describe('liveAnswer', () => {
  it('is the complete words after Finish[, without the closing bracket', () => {
    expect(liveAnswer('Thought: done\nAction: Finish[The fix is rea')).toBe('The fix is ');
    expect(liveAnswer('Thought: done\nAction: Finish[All good.]')).toBe('All ');
    expect(liveAnswer('Thought: done\nAction: Finish[All good.]\n')).toBe('All ');
    expect(liveAnswer('Thought: done\nAction: Finish[See [1] and ')).toBe('See [1] and ');
  });

  it('is undefined for a tool step', () => {
    expect(liveAnswer('Thought: x\nAction: Read[{"path": "a"}]')).toBeUndefined();
  });
});

describe('completeBlocks', () => {
  it('is every block but the last, which may still grow', () => {
    expect(completeBlocks('# Title\n\nFirst para.\n\nSecond')).toBe('# Title\n\nFirst para.\n\n');
    expect(completeBlocks('Only one paragraph so far')).toBe('');
  });

  it('keeps an unclosed code fence (with blank lines inside) as one growing block', () => {
    expect(completeBlocks('Intro.\n\n```js\na();\n\nb();\n')).toBe('Intro.\n\n');
  });

  it('completeWords cuts at the last whitespace', () => {
    expect(completeWords('one two thr')).toBe('one two ');
    expect(completeWords('one')).toBe('');
  });
});

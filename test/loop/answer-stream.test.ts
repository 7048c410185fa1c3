import { describe, expect, it } from 'vitest';
import { streamedAnswer } from '../../src/loop/answer-stream.js';

describe('streamedAnswer', () => {
  it('is the text after Finish[ on the first action line, as far as it has arrived', () => {
    expect(streamedAnswer('Thought: done.\nAction: Finish[The fix is')).toBe('The fix is');
    expect(streamedAnswer('Thought: done.\n**Action:** Finish[## Result\n- one')).toBe('## Result\n- one');
  });

  it('is undefined before the action line is complete or when the first action is a tool', () => {
    expect(streamedAnswer('Thought: I will finish')).toBeUndefined();
    expect(streamedAnswer('Thought: x\nAction: Fin')).toBeUndefined();
    expect(streamedAnswer('Thought: x\nAction: Bash[{"command": "echo Action: Finish[no]"}]')).toBeUndefined();
  });

  it('does not take a Finish mentioned inside a thought line as the action', () => {
    expect(streamedAnswer('Thought: then Action: Finish[x] later\nAction: Read[{"path":"a"}]')).toBeUndefined();
  });
});

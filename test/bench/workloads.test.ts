import { describe, expect, it } from 'vitest';
import { personTaskText } from '../../bench/replay/task-text.js';
import { FOLLOW_UPS, toDays, toInteractive } from '../../bench/replay/workloads.js';
import { readingTask } from './replay-fixtures.js';

describe('task text as a person types it', () => {
  it('keeps the PR description of a mini-swe-agent task and drops its instructions', () => {
    const recorded =
      '<pr_description>\nConsider the following PR description:\nTimeSeries: misleading exception.\n\n' +
      '### Description\nDetails.\n</pr_description>\n\n<instructions>\n# Task Instructions\nTHOUGHT …\n</instructions>';
    expect(personTaskText(recorded)).toBe('TimeSeries: misleading exception.\n\n### Description\nDetails.');
  });

  it('drops the SWE-agent lead-in and everything from the INSTRUCTIONS: line on', () => {
    const recorded =
      "We're currently solving the following issue within our repository. Here's the issue text:\nISSUE:\n" +
      'SyntaxError: invalid syntax\nI run `missing_colon.py`.\n\n\nINSTRUCTIONS:\nNow, you are going to …\n' +
      '(Open file: n/a)\nbash-$';
    expect(personTaskText(recorded)).toBe('SyntaxError: invalid syntax\nI run `missing_colon.py`.');
  });

  it('keeps a CTF lead-in, which names the challenge, and text of any other shape', () => {
    const ctf =
      'We\'re currently solving the following CTF challenge. The CTF challenge is a forensics problem named "flash".\n' +
      "Files included in the challenge: ['a.zip']\n\nINSTRUCTIONS:\nSolve it.";
    expect(personTaskText(ctf)).toBe(
      'We\'re currently solving the following CTF challenge. The CTF challenge is a forensics problem named "flash".\n' +
        "Files included in the challenge: ['a.zip']",
    );
    expect(personTaskText('  fix the login bug  ')).toBe('fix the login bug');
    // "INSTRUCTIONS:" inside a line is text, not the harness's section.
    expect(personTaskText('see INSTRUCTIONS: in the README')).toBe('see INSTRUCTIONS: in the README');
  });
});

describe('workloads', () => {
  it('groups sessions into days in order, the last day shorter', () => {
    expect(toDays([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('splits a task into user turns every few steps with the follow-ups in turn; steps unchanged', () => {
    const task = readingTask('a', 11, 10); // 12 steps with the final answer
    const interactive = toInteractive(task, 3);
    expect(interactive.turns.map((turn) => turn.text)).toEqual([
      'Task a: fix the bug',
      FOLLOW_UPS[0],
      FOLLOW_UPS[1],
      FOLLOW_UPS[2],
    ]);
    expect(interactive.turns.map((turn) => turn.steps.length)).toEqual([3, 3, 3, 3]);
    expect(interactive.turns.flatMap((turn) => turn.steps)).toEqual(task.turns[0]?.steps);
    expect(interactive.task).toBe(task.task);
    expect(toInteractive(readingTask('b', 1, 10), 3).turns).toHaveLength(1);
  });
});

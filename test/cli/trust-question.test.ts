/** The trust question lists the broad rules first and all of them: a whole-tool Bash rule cannot hide at #12. */
import { describe, expect, it } from 'vitest';
import { trustQuestionLines } from '../../src/cli/trust-question.js';

const exact = (count: number): string[] =>
  Array.from({ length: count }, (_, index) => `Bash(npm run task${index}) (.mca/settings.json)`);

describe('trustQuestionLines', () => {
  it('shows a whole-tool rule listed twelfth, first', () => {
    const lines = trustQuestionLines([...exact(11), 'Bash (.mca/settings.json)']);
    expect(lines[0]).toBe('  Bash (.mca/settings.json)');
    expect(lines.at(-1)).toBe('  … and 2 more exact rule(s)');
  });

  it('orders whole-tool, shell commands, wildcard, exact; every broad one shown', () => {
    const lines = trustQuestionLines([
      ...exact(20),
      'Bash(git log *) (.claude/settings.json)',
      '/deploy runs shell commands (.claude/commands/deploy.md)',
      'Edit(*) (.mca/settings.json)',
      'Write(src/**) (.mca/settings.json)',
    ]);
    expect(lines.slice(0, 4)).toEqual([
      '  Edit(*) (.mca/settings.json)',
      '  /deploy runs shell commands (.claude/commands/deploy.md)',
      '  Bash(git log *) (.claude/settings.json)',
      '  Write(src/**) (.mca/settings.json)',
    ]);
    expect(lines).toContain('  … and 14 more exact rule(s)');
  });

  it('neutralises escape sequences and lists duplicates once', () => {
    const lines = trustQuestionLines(['Bash(x\u001b]2;t\u0007) (f)', 'Bash(x\u001b]2;t\u0007) (f)']);
    expect(lines).toEqual(['  Bash(x␛]2;t␇) (f)']);
  });
});

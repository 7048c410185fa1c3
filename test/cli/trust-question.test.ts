import { describe, expect, it } from 'vitest';
import { menuKeys } from '../../src/cli/trust-keys.js';
import { trustQuestionLines } from '../../src/cli/modes/trust-question.js';
import type { TrustItem } from '../../src/permissions/trust-items.js';

const exact = (count: number): TrustItem[] =>
  Array.from({ length: count }, (_, i) => ({ group: 'rules', text: `allows Bash(npm run t${i}) (f)`, danger: false }));

describe('trustQuestionLines', () => {
  it('benign entries never push a dangerous one past the cut (round three, classes 2 and 5)', () => {
    const items: TrustItem[] = [
      ...exact(200),
      { group: 'hooks', text: 'hook PreToolUse: ./evil.sh (.claude/settings.json)', danger: true },
      { group: 'rules', text: 'allows Bash (.mca/settings.json)', danger: true },
      { group: 'widening', text: 'adds the directory / (.claude/settings.local.json)', danger: true },
    ];
    const lines = trustQuestionLines(items, false);
    expect(lines.some((line) => line.includes('./evil.sh'))).toBe(true);
    expect(lines.some((line) => line.includes('allows Bash (.mca'))).toBe(true);
    expect(lines.some((line) => line.includes('adds the directory /'))).toBe(true);
    expect(lines.some((line) => line.includes('… and 197 more like these'))).toBe(true);
    expect(lines.length).toBeLessThan(15);
    expect(trustQuestionLines(items, true).filter((line) => line.includes('npm run t'))).toHaveLength(200);
  });

  it('groups in a fixed order, one line per item, details under their server; control characters neutralised', () => {
    const lines = trustQuestionLines(
      [
        { group: 'rules', text: 'allows Bash(x\u001b]2;t\u0007) (f)', danger: false },
        { group: 'rules', text: 'allows Bash(x\u001b]2;t\u0007) (f)', danger: false },
        {
          group: 'mcp',
          text: '"s" runs node s.js (.mcp.json)',
          danger: true,
          details: ['env NODE_OPTIONS=--require ./x.cjs'],
        },
      ],
      false,
    );
    expect(lines[0]).toBe('MCP servers (1)');
    expect(lines[2]).toContain('env NODE_OPTIONS');
    expect(lines.join('\n')).not.toContain('\u001b]');
    expect(lines.filter((line) => line.includes('allows Bash'))).toHaveLength(1);
  });

  it('wraps long lines at word boundaries within the width', () => {
    const long = { group: 'hooks' as const, text: `hook ${'word '.repeat(40)}end`, danger: true };
    for (const line of trustQuestionLines([long], false, 40)) expect(line.length).toBeLessThanOrEqual(40);
  });
});

describe('menuKeys', () => {
  it('splits keys typed together into one read', () => {
    expect(menuKeys('\u001b[B\r')).toEqual(['down', 'enter']);
    expect(menuKeys('d2')).toEqual(['toggle', { pick: 1 }]);
    expect(menuKeys('\u001b')).toEqual(['cancel']);
    expect(menuKeys('\r')).toEqual(['enter']);
  });
});

import { describe, expect, it } from 'vitest';
import { addMemory, emptyMemory, recalledPaths } from '../../bench/replay/memory.js';
import { asFilePath, pathsInText, pathsNamedBy } from '../../bench/replay/path-extraction.js';
import { bashStep, readingTask, readStep } from './replay-fixtures.js';

describe('path extraction (fixed examples)', () => {
  const cases: Array<[string, string[]]> = [
    ["nl -ba astropy/timeseries/core.py | sed -n '40,90p'", ['astropy/timeseries/core.py']],
    ['cat ./setup.cfg && grep -rn "def foo" src/pkg/mod.py:12', ['setup.cfg', 'src/pkg/mod.py']],
    ['python -c "import numpy as np; print(np.arange(3), os.path.join(a, b))"', []],
    ["sed -i 's/old.value/new.value/g' /testbed/django/db/models/query.py", ['/testbed/django/db/models/query.py']],
    ['pip install foo==1.2.3 --config-file=pyproject.toml -v', ['pyproject.toml']],
    ['ls django/db/models/ && find . -name "*.rst"', []],
    ['open "tests/./missing_colon.py" 4', ['tests/./missing_colon.py']],
    ['curl https://github.com/marshmallow-code/marshmallow/blob/dev/src/fields.py#L1', []],
    ['cat README.md README.md notes.txt Makefile', ['README.md', 'notes.txt']],
    ['cat a/b.c a/b.c', ['a/b.c']],
  ];
  for (const [command, expected] of cases) {
    it(`${command} → ${expected.join(', ') || 'none'}`, () => {
      expect(pathsInText(command)).toEqual(expected);
    });
  }

  it('reads every string of a structured input and nothing else', () => {
    const call = { tool: 'edit', input: { path: 'src/a.py', old: 'x = 1', lines: [3, 4], meta: { file: 'b.py' } } };
    expect(pathsNamedBy(call)).toEqual(['src/a.py', 'b.py']);
  });

  it('refuses options, bare names without a known extension and non-path characters', () => {
    expect(asFilePath('--out=x.py')).toBeUndefined();
    expect(asFilePath('self.assertEqual')).toBeUndefined();
    expect(asFilePath('v1.2')).toBeUndefined();
    expect(asFilePath('$HOME/x.py')).toBeUndefined();
    expect(asFilePath('lib/foo.bar')).toBe('lib/foo.bar');
  });
});

describe('memory figure', () => {
  it('asks only for paths that appeared earlier in the conversation, across tasks', () => {
    const first = readingTask('a', 2, 100); // reads a/f0.py, a/f1.py
    const second = { ...readingTask('b', 0, 100) };
    const again = readStep('a/f0.py', 100);
    const fresh = readStep('c/new.py', 100);
    const mention = bashStep('python run.py', 10);
    second.turns = [{ text: 'now look at run.py again', steps: [again, fresh, mention] }];
    const probes = recalledPaths([first, second]);
    // a/f0.py is named by its own first read, not earlier: nothing to recall yet.
    expect(probes.get(first.turns[0]!.steps[0]!)).toEqual([]);
    expect(probes.get(again)).toEqual(['a/f0.py']);
    expect(probes.get(fresh)).toEqual([]);
    // run.py appeared in the user's text of this turn.
    expect(probes.get(mention)).toEqual(['run.py']);
  });

  it('counts the recalled paths and the task text the request carries', () => {
    const totals = emptyMemory();
    const request = [{ text: 'system' }, { text: 'Task: fix it\n[tool] a/f0.py …' }];
    addMemory(totals, request, ['a/f0.py', 'a/f1.py'], 'Task: fix it');
    addMemory(totals, request, [], 'Task: something else');
    expect(totals).toEqual({
      calls: 2,
      pathsAsked: 2,
      pathsPresent: 1,
      taskPresent: 1,
      contentAsked: 0,
      contentPresent: 0,
    });
  });
});

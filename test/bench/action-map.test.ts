import { describe, expect, it } from 'vitest';
import { mapCall } from '../../bench/replay/action-map.js';
import { classifyCall } from '../../bench/replay/classify.js';
import { parseSession } from '../../bench/replay/trajectory.js';
import { toReplayTask } from '../../bench/replay/replay-task.js';
import type { GrepData, ReadData, BashData, LsData, EditData, WriteData } from '../../src/tools/registry/tool-data.js';

const bash = (command: string, output = '', isError?: boolean) => ({
  tool: 'bash',
  input: { command },
  output,
  ...(isError === undefined ? {} : { isError }),
});
const wrapped = (body: string, code = 0) => `<returncode>${code}</returncode>\n<output>\n${body}\n</output>`;

describe('classifyCall', () => {
  it.each([
    ["nl -ba src/a.py | sed -n '10,20p'", 'Read'],
    ["sed -n '5,9p' src/a.py", 'Read'],
    ['cat setup.py', 'Read'],
    ['head -n 40 README.md', 'Read'],
    ['grep -R "Foo" -n src | head -n 50', 'Grep'],
    ['rg "carriage" -n || true', 'Grep'],
    ['ls -la astropy/units', 'LS'],
    ["find . -name '*.py'", 'Glob'],
    ["sed -i 's/a/b/' src/a.py && nl -ba src/a.py | sed -n '1,5p'", 'Edit'],
    ["perl -0777 -i -pe 's/x/y/' f.py", 'Edit'],
    ["python - <<'PY'\nfrom pathlib import Path\np=Path('m.py')\np.write_text('x')\nPY", 'Edit'],
    ["cat > t.py <<'PY'\nprint(1)\nPY", 'Write'],
    ["python - <<'PY'\nprint(1)\nPY", 'Bash'],
    ['pytest -q tests', 'Bash'],
    ['cat a.py > b.py', 'Bash'],
  ])('%s → %s', (command, kind) => {
    expect(classifyCall(bash(command)).kind).toBe(kind);
  });

  it('maps SWE-agent tools in both their text and structured forms', () => {
    expect(classifyCall({ tool: 'open', input: { command: 'open src/x.py 40' } })).toMatchObject({
      kind: 'Read',
      path: 'src/x.py',
    });
    expect(classifyCall({ tool: 'open', input: { path: 'a.py', line_number: 3 } }).kind).toBe('Read');
    expect(classifyCall({ tool: 'find_file', input: { file_name: 'f.py', dir: 'src' } })).toMatchObject({
      kind: 'Glob',
      pattern: 'f.py',
      path: 'src',
    });
    expect(classifyCall({ tool: 'edit', input: { command: 'edit 4:4\nnew line\nend_of_edit' } })).toMatchObject({
      kind: 'Edit',
      newString: 'new line',
      startLine: 4,
    });
    expect(classifyCall({ tool: 'edit', input: { search: 'a', replace: 'b' } })).toMatchObject({
      kind: 'Edit',
      oldString: 'a',
      newString: 'b',
    });
    expect(classifyCall({ tool: 'decompile', input: { command: 'decompile bin' } }).kind).toBe('Bash');
  });
});

describe('mapCall envelopes', () => {
  it('Read keeps nl numbers and strips the return-code wrapper; text is the recorded output', () => {
    const output = wrapped('    10\tdef f():\n    11\t    return 1');
    const mapped = mapCall(bash("nl -ba a.py | sed -n '10,11p'", output));
    const data = mapped.envelope.data as unknown as ReadData;
    expect(mapped.tool).toBe('Read');
    expect(data).toMatchObject({
      path: 'a.py',
      start_line: 10,
      end_line: 11,
      content: '10\tdef f():\n11\t    return 1',
    });
    expect(mapped.envelope.text).toBe(output);
    expect(mapped.input).toEqual({ path: 'a.py', start_line: 10, limit: 2 });
  });

  it('Read numbers unnumbered views from the sed start and drops SWE-agent window chrome', () => {
    const sed = mapCall(bash("sed -n '5,6p' a.py", wrapped('x\ny')));
    expect((sed.envelope.data as unknown as ReadData).content).toBe('5\tx\n6\ty');
    const open = mapCall({
      tool: 'open',
      input: { command: 'open a.py' },
      output: '[File: /r/a.py (94 lines total)]\n(3 more lines above)\n4:import re\n5:x = 1\n(89 more lines below)',
    });
    const data = open.envelope.data as unknown as ReadData;
    expect(data).toMatchObject({ content: '4\timport re\n5\tx = 1', total_lines: 94, start_line: 4, end_line: 5 });
  });

  it('Grep parses file:line:text; exit 1 (no match) is not an error; non-matching output falls back to Bash', () => {
    const grep = mapCall(bash('grep -rn "Foo" src', wrapped('src/a.py:3:class Foo:\nsrc/b.py:9:Foo()')));
    const data = grep.envelope.data as unknown as GrepData;
    expect(data.pattern).toBe('Foo');
    expect(data.path).toBe('src');
    expect(data.matches).toEqual([
      { file: 'src/a.py', line: 3, text: 'class Foo:' },
      { file: 'src/b.py', line: 9, text: 'Foo()' },
    ]);
    const none = mapCall(bash('grep -rn "Nope" src', '<returncode>1</returncode>\n<output>\n</output>'));
    expect(none.envelope.status).toBe('success');
    expect((none.envelope.data as unknown as GrepData).total).toBe(0);
    expect(mapCall(bash('grep -rl "Foo" src', wrapped('src/a.py\nsrc/b.py'))).tool).toBe('Bash');
  });

  it('LS takes the names of ls -l lines; Bash keeps the exit code; failed edits are errors', () => {
    const ls = mapCall(
      bash(
        'ls -la',
        wrapped('total 8\ndrwxr-xr-x 2 root root 4096 Sep 1 10:00 src\n-rw-r--r-- 1 root root 5 Sep 1 10:00 a.py'),
      ),
    );
    expect((ls.envelope.data as unknown as LsData).entries).toEqual(['src', 'a.py']);
    const run = mapCall(bash('pytest -q', wrapped('1 failed', 1)));
    expect(run.envelope.status).toBe('success');
    expect(run.envelope.data as unknown as BashData).toMatchObject({
      command: 'pytest -q',
      exit_code: 1,
      stdout: '1 failed',
    });
    const edit = mapCall(bash("sed -i 's/old/new/' a.py", wrapped('sed: no such file', 2)));
    expect(edit.envelope.status).toBe('error');
    expect(edit.envelope.error?.code).toBe('EXECUTION_ERROR');
    expect((edit.envelope.data as unknown as EditData).diff).toContain('-old\n+new');
  });

  it('Write takes the heredoc body as the new file', () => {
    const write = mapCall(bash("cat > t.py <<'PY'\nprint(1)\nprint(2)\nPY", wrapped('')));
    expect(write.envelope.data as unknown as WriteData).toMatchObject({ path: 't.py', action: 'created', lines: 2 });
    expect(write.input).toEqual({ path: 't.py', content: 'print(1)\nprint(2)' });
  });
});

describe('parseSession / toReplayTask', () => {
  const lines = [
    { type: 'user', text: 'Fix the bug' },
    { type: 'assistant', text: 'Look first' },
    { type: 'tool_call', tool: 'bash', id: '1', input: { command: 'ls' } },
    { type: 'tool_result', tool: 'bash', id: '1', output: wrapped('a.py'), is_error: false },
    { type: 'user', text: 'No tool calls found in the response.' },
    { type: 'tool_call', tool: 'bash', id: '2', input: { command: 'pytest' } },
    { type: 'tool_result', tool: 'bash', id: '2', output: wrapped('ok'), is_error: false },
    { type: 'tool_call', tool: 'submit', input: { command: 'submit' } },
  ].map((event) => JSON.stringify(event));

  it('takes the first user event as the task, drops later nags, one step per call', () => {
    const session = parseSession('s', lines.join('\n') + '\nnot json\n');
    expect(session.task).toBe('Fix the bug');
    expect(session.droppedUserEvents).toBe(1);
    expect(session.steps).toHaveLength(3);
    expect(session.steps[0]?.text).toBe('Look first');
    expect(session.steps[1]?.call?.output).toBe(wrapped('ok'));
  });

  it('ends with a final answer when the last call has no result', () => {
    const task = toReplayTask(parseSession('s', lines.join('\n')));
    const steps = task.turns[0]?.steps ?? [];
    expect(task.turns).toHaveLength(1);
    expect(task.turns[0]?.text).toBe('Fix the bug');
    expect(steps.map((step) => step.action?.tool ?? 'final')).toEqual(['LS', 'Bash', 'final']);
    expect(steps[2]?.answer).toBe('submit');
    expect(steps[0]?.recordedCall).toBe('bash {"command":"ls"}');
    expect(steps[0]?.call?.input).toEqual({ command: 'ls' });
  });
});

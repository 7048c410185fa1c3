import { describe, expect, it } from 'vitest';
import { fromClaudeCodeInput, toClaudeCodeInput } from '../../src/claude-code/tool-input.js';
import { toClaudeCodeResponse } from '../../src/claude-code/tool-response.js';
import { errorEnvelope, successEnvelope } from '../../src/tools/registry/envelope.js';

const ROOT = '/work/project';

describe('mca tool input in Claude Code names', () => {
  it('file tools carry an absolute file_path and nothing named path', () => {
    expect(toClaudeCodeInput('Read', { path: 'src/a.ts', start_line: 10, limit: 20 }, ROOT)).toEqual({
      file_path: '/work/project/src/a.ts',
      offset: 10,
      limit: 20,
    });
    expect(toClaudeCodeInput('Write', { path: 'a.txt', content: 'x' }, ROOT)).toEqual({
      file_path: '/work/project/a.txt',
      content: 'x',
    });
    expect(
      toClaudeCodeInput('Edit', { path: 'a.txt', old_string: 'a', new_string: 'b', replace_all: false }, ROOT),
    ).toEqual({ file_path: '/work/project/a.txt', old_string: 'a', new_string: 'b', replace_all: false });
    const edits = [{ old_string: 'a', new_string: 'b', replace_all: false }];
    expect(toClaudeCodeInput('MultiEdit', { path: 'a.txt', edits }, ROOT)).toEqual({
      file_path: '/work/project/a.txt',
      edits,
    });
  });

  it('Grep has glob and -i; Bash has timeout in milliseconds; Glob and LS leave out mca defaults', () => {
    expect(
      toClaudeCodeInput('Grep', { pattern: 'foo', path: 'src', include: '*.ts', case_sensitive: false }, ROOT),
    ).toEqual({ pattern: 'foo', path: '/work/project/src', glob: '*.ts', '-i': true });
    expect(toClaudeCodeInput('Grep', { pattern: 'foo', path: '.', case_sensitive: true }, ROOT)).toEqual({
      pattern: 'foo',
      path: '/work/project',
      '-i': false,
    });
    expect(toClaudeCodeInput('Bash', { command: 'ls', timeout_ms: 120000 }, ROOT)).toEqual({
      command: 'ls',
      timeout: 120000,
    });
    expect(toClaudeCodeInput('Glob', { pattern: '**/*.ts', path: '.', limit: 50 }, ROOT)).toEqual({
      pattern: '**/*.ts',
      path: '/work/project',
    });
    expect(toClaudeCodeInput('Glob', { pattern: '*', path: '.', limit: 7 }, ROOT)).toMatchObject({ limit: 7 });
    expect(
      toClaudeCodeInput('LS', { path: 'src', offset: 0, limit: 100, include_hidden: false, ignore: [] }, ROOT),
    ).toEqual({ path: '/work/project/src' });
  });

  it('tools Claude Code shares as they are, MCP tools and unknown inputs pass through', () => {
    const todos = { todos: [{ content: 'a', status: 'pending' }] };
    expect(toClaudeCodeInput('TodoWrite', todos, ROOT)).toEqual(todos);
    expect(toClaudeCodeInput('mcp__git-hub__create_issue', { title: 't' }, ROOT)).toEqual({ title: 't' });
    expect(toClaudeCodeInput('Read', 'not an object', ROOT)).toBe('not an object');
  });
});

describe('Claude Code tool input back in mca names', () => {
  it('absolute paths inside the project become project-relative; outside ones stay absolute for the guard', () => {
    expect(fromClaudeCodeInput('Read', { file_path: '/work/project/src/a.ts', offset: 5, limit: 9 }, ROOT)).toEqual({
      path: 'src/a.ts',
      start_line: 5,
      limit: 9,
    });
    expect(fromClaudeCodeInput('Write', { file_path: '/etc/passwd', content: 'x' }, ROOT)).toEqual({
      path: '/etc/passwd',
      content: 'x',
    });
    expect(fromClaudeCodeInput('Read', { file_path: '/work/project-other/a', offset: 0 }, ROOT)).toEqual({
      path: '/work/project-other/a',
      start_line: 1,
    });
  });

  it('every mapped tool round-trips', () => {
    const inputs: Array<[string, Record<string, unknown>]> = [
      ['Read', { path: 'a/b.ts', start_line: 3, limit: 40 }],
      ['Write', { path: 'x.md', content: 'hi' }],
      ['Edit', { path: 'x.md', old_string: 'a', new_string: 'b', replace_all: true }],
      ['MultiEdit', { path: 'x.md', edits: [{ old_string: 'a', new_string: 'b', replace_all: false }] }],
      ['Grep', { pattern: 'p', path: 'src', include: '*.ts', case_sensitive: false }],
      ['Grep', { pattern: 'p', path: 'src', case_sensitive: true }],
      ['Bash', { command: 'npm test', timeout_ms: 5000 }],
      ['Glob', { pattern: '*.ts', path: 'src', limit: 9 }],
      ['LS', { path: 'src', offset: 2, limit: 5, include_hidden: true, ignore: ['*.log'] }],
      ['TodoWrite', { todos: [{ content: 'a', status: 'in_progress' }] }],
    ];
    for (const [tool, input] of inputs) {
      expect(fromClaudeCodeInput(tool, toClaudeCodeInput(tool, input, ROOT), ROOT), tool).toEqual(input);
    }
  });

  it('Claude Code-only fields mca cannot honour are dropped; Grep without -i is case-sensitive', () => {
    expect(
      fromClaudeCodeInput(
        'Bash',
        { command: 'ls', description: 'list', run_in_background: false, timeout: 9000 },
        ROOT,
      ),
    ).toEqual({ command: 'ls', timeout_ms: 9000 });
    expect(
      fromClaudeCodeInput('Grep', { pattern: 'x', output_mode: 'content', '-n': true, glob: '*.md' }, ROOT),
    ).toEqual({ pattern: 'x', include: '*.md', case_sensitive: true });
    expect(
      fromClaudeCodeInput('TodoWrite', { todos: [{ content: 'a', status: 'pending', activeForm: 'Doing a' }] }, ROOT),
    ).toEqual({ todos: [{ content: 'a', status: 'pending' }] });
  });

  it('an input already in mca names is accepted as it is', () => {
    expect(fromClaudeCodeInput('Edit', { path: 'a.ts', old_string: 'a', new_string: 'b' }, ROOT)).toEqual({
      path: 'a.ts',
      old_string: 'a',
      new_string: 'b',
    });
    expect(fromClaudeCodeInput('Bash', { command: 'ls', timeout_ms: 100 }, ROOT)).toEqual({
      command: 'ls',
      timeout_ms: 100,
    });
  });
});

describe('tool results in Claude Code shape', () => {
  it('Bash, Read, Write and Edit results carry what Claude Code reports, with absolute file paths', () => {
    const bash = successEnvelope({ command: 'ls', exit_code: 0, stdout: 'a\n', stderr: '' }, 'a');
    expect(toClaudeCodeResponse('Bash', { command: 'ls' }, bash, ROOT)).toEqual({
      stdout: 'a\n',
      stderr: '',
      interrupted: false,
      isImage: false,
    });
    const read = successEnvelope(
      { path: 'a.ts', start_line: 2, end_line: 3, total_lines: 9, content: '2\tx\n3\ty', truncated: false },
      '',
    );
    expect(toClaudeCodeResponse('Read', { path: 'a.ts' }, read, ROOT)).toEqual({
      type: 'text',
      file: { filePath: '/work/project/a.ts', content: 'x\ny', numLines: 2, startLine: 2, totalLines: 9 },
    });
    const write = successEnvelope({ path: 'n.txt', action: 'created', lines: 1, bytes: 2, content: 'hi' }, '');
    expect(toClaudeCodeResponse('Write', { path: 'n.txt', content: 'hi' }, write, ROOT)).toEqual({
      type: 'create',
      filePath: '/work/project/n.txt',
      content: 'hi',
    });
    const edit = successEnvelope({ path: 'e.txt', applied: true, replacements: 1, diff: '' }, '');
    expect(toClaudeCodeResponse('Edit', { path: 'e.txt', old_string: 'a', new_string: 'b' }, edit, ROOT)).toEqual({
      filePath: '/work/project/e.txt',
      oldString: 'a',
      newString: 'b',
      replaceAll: false,
    });
  });

  it('a tool Claude Code does not know gives its data, or its text when it has none', () => {
    expect(toClaudeCodeResponse('Recall', {}, successEnvelope({ ref: 'r1' }, 't'), ROOT)).toEqual({ ref: 'r1' });
    expect(toClaudeCodeResponse('Read', {}, errorEnvelope('NOT_FOUND', 'no such file'), ROOT)).toBe(
      'Error [NOT_FOUND]: no such file',
    );
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { billOf } from '../../bench/peers/account.js';
import { declaredTools } from '../../bench/peers/fake-apis.js';
import type { RecordedRequest } from '../../bench/peers/player.js';
import { expectedFiles, loadTask, stepCount } from '../../bench/peers/script.js';
import { isAgentRequest, mapStep, patchOf, type DeclaredTool } from '../../bench/peers/tool-map.js';

const PEERS = fileURLToPath(new URL('../../bench/peers/', import.meta.url));
const fn = (name: string, params: string[]): DeclaredTool => ({ name, params, kind: 'function' });
const ROOT = '/w/repo';

const claude = [
  fn('Read', ['file_path']),
  fn('Grep', ['pattern', 'path', 'output_mode', '-n']),
  fn('Edit', ['file_path', 'old_string', 'new_string']),
  fn('Bash', ['command', 'description']),
];
const gemini = [
  fn('read_file', ['file_path']),
  fn('grep_search', ['pattern', 'dir_path', 'include']),
  fn('replace', ['file_path', 'old_string', 'new_string', 'instruction']),
  fn('run_shell_command', ['command', 'description']),
];
const codex = [fn('exec_command', ['cmd', 'workdir']), fn('write_stdin', ['session_id', 'chars'])];

describe('the step mapping layer', () => {
  it('speaks Claude Code vocabulary with absolute paths and content output', () => {
    expect(mapStep({ read: 'src/a.js' }, claude, ROOT)).toEqual({
      name: 'Read',
      input: { file_path: '/w/repo/src/a.js' },
      say: 'Reading src/a.js.',
    });
    expect(mapStep({ grep: 'x', in: 'src' }, claude, ROOT).input).toEqual({
      pattern: 'x',
      path: '/w/repo/src',
      output_mode: 'content',
      '-n': true,
    });
  });

  it('fills Gemini CLI parameters: a file search becomes its folder plus an include glob, an edit its instruction', () => {
    expect(mapStep({ grep: 'x', in: 'docs/README.md' }, gemini, ROOT).input).toEqual({
      pattern: 'x',
      dir_path: '/w/repo/docs',
      include: 'README.md',
    });
    const edit = mapStep({ edit: 'a.js', old: 'a', new: 'b', say: 'Fix a.' }, gemini, ROOT);
    expect(edit.input).toEqual({ file_path: '/w/repo/a.js', old_string: 'a', new_string: 'b', instruction: 'Fix a.' });
  });

  it('gives a shell-only program (Codex) cat, grep and apply_patch', () => {
    expect(mapStep({ read: "it's.md" }, codex, ROOT).input).toEqual({ cmd: `cat 'it'\\''s.md'` });
    expect(mapStep({ grep: 'a(', in: 'src' }, codex, ROOT).input).toEqual({ cmd: `grep -rn 'a(' 'src'` });
    const edit = mapStep({ edit: 'a.js', old: 'x\ny', new: 'z' }, codex, ROOT);
    expect(edit.input).toEqual({ cmd: `apply_patch <<'PATCH'\n${patchOf('a.js', 'x\ny', 'z')}\nPATCH` });
    expect(patchOf('a.js', 'x\ny', 'z')).toBe('*** Begin Patch\n*** Update File: a.js\n@@\n-x\n-y\n+z\n*** End Patch');
  });

  it('tells main-loop requests from side queries by the tools they offer', () => {
    expect(isAgentRequest(codex)).toBe(true);
    expect(isAgentRequest([fn('set_title', ['title'])])).toBe(false);
    expect(
      declaredTools('gemini', {
        tools: [
          { functionDeclarations: [{ name: 'read_file', parametersJsonSchema: { properties: { file_path: {} } } }] },
        ],
      }),
    ).toEqual([fn('read_file', ['file_path'])]);
  });
});

describe('the task data', () => {
  it('loads, and every edit of bench/peers/task.json applies to the fixture repository', () => {
    const task = loadTask(join(PEERS, 'task.json'));
    expect(stepCount(task)).toBeGreaterThanOrEqual(30);
    const files = expectedFiles(task, (path) => readFileSync(join(PEERS, task.repo, path), 'utf8'));
    expect([...files.keys()]).toContain('src/parse.js');
  });
});

describe('the bill', () => {
  it('reads the prefix identical to an earlier request from the implicit cache', () => {
    const request = (messages: string[]): RecordedRequest => ({
      api: 'chat',
      path: '/v1/chat/completions',
      raw: JSON.stringify({ messages: messages.map((content) => ({ role: 'user', content })) }),
      agent: true,
      replyText: 'ok',
    });
    const bill = billOf([request(['a'.repeat(300)]), request(['a'.repeat(300), 'b'.repeat(300)])]);
    expect(bill.requests).toBe(2);
    expect(bill.cacheRead).toBeGreaterThan(90);
    expect(bill.cacheWritten).toBe(0);
    expect(bill.prefixBytes).toBeGreaterThan(300);
  });
});

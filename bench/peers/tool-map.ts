/**
 * The mapping layer: an abstract step (script.ts) becomes a tool call in the vocabulary of the program being
 * driven, read off the tools its own request declares (names and parameter names), so one script plays through
 * every program. Paths are absolute (what Claude Code, Gemini CLI and opencode require). A program without a
 * tool for a step gets it through its shell tool (Codex reads with `cat` and searches with `grep -rn`), and an
 * edit without an edit tool becomes an `apply_patch` patch (Codex's own edit format).
 */
import { dirname, join } from 'node:path';
import { sayOf, type ToolStep } from './script.js';

export interface DeclaredTool {
  name: string;
  /** Parameter names of its JSON schema (none for a freeform tool). */
  params: string[];
  /** 'custom': a freeform tool that takes raw text (the Responses API's custom tools). */
  kind: 'function' | 'custom';
}

export interface MappedCall {
  name: string;
  /** JSON arguments, or raw text for a custom (freeform) tool. */
  input: Record<string, unknown> | string;
  say: string;
}

export class UnmappableStep extends Error {}

const NAMES = {
  read: ['Read', 'read_file', 'read'],
  grep: ['Grep', 'grep_search', 'search_file_content', 'grep'],
  edit: ['Edit', 'replace', 'edit'],
  bash: ['Bash', 'run_shell_command', 'bash', 'shell_command', 'exec_command', 'shell', 'local_shell'],
};
const PATH_KEYS = ['file_path', 'absolute_path', 'filePath', 'path'];

function pick(tools: readonly DeclaredTool[], names: readonly string[]): DeclaredTool | undefined {
  for (const name of names) {
    const found = tools.find((tool) => tool.name === name);
    if (found) return found;
  }
  return undefined;
}

function key(tool: DeclaredTool, candidates: readonly string[]): string {
  const found = candidates.find((candidate) => tool.params.includes(candidate));
  if (found === undefined) throw new UnmappableStep(`${tool.name} has none of ${candidates.join('/')}`);
  return found;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function shellCall(tools: readonly DeclaredTool[], command: string, say: string): MappedCall {
  const tool = pick(tools, NAMES.bash);
  if (tool === undefined) throw new UnmappableStep(`no shell tool among ${tools.map((t) => t.name).join(', ')}`);
  const input: Record<string, unknown> = {};
  const commandKey = key(tool, ['command', 'cmd']);
  // Codex's legacy `shell` tool takes an argv array.
  input[commandKey] = tool.name === 'shell' ? ['bash', '-lc', command] : command;
  if (tool.params.includes('description')) input.description = say;
  return { name: tool.name, input, say };
}

/** An apply_patch patch replacing the step's old lines by its new lines. */
export function patchOf(file: string, old: string, replacement: string): string {
  const minus = old.split('\n').map((line) => `-${line}`);
  const plus = replacement.split('\n').map((line) => `+${line}`);
  return ['*** Begin Patch', `*** Update File: ${file}`, '@@', ...minus, ...plus, '*** End Patch'].join('\n');
}

export function mapStep(step: ToolStep, tools: readonly DeclaredTool[], root: string): MappedCall {
  const say = sayOf(step);
  if ('read' in step) {
    const tool = pick(tools, NAMES.read);
    if (tool === undefined) return shellCall(tools, `cat ${quote(step.read)}`, say);
    return { name: tool.name, input: { [key(tool, PATH_KEYS)]: join(root, step.read) }, say };
  }
  if ('grep' in step) {
    const tool = pick(tools, NAMES.grep);
    if (tool === undefined) return shellCall(tools, `grep -rn ${quote(step.grep)} ${quote(step.in)}`, say);
    const input: Record<string, unknown> = { pattern: step.grep };
    const isFile = /\.[a-z]+$/i.test(step.in);
    const pathKey = key(tool, ['path', 'dir_path', 'absolute_path']);
    // Gemini CLI, Qwen Code and opencode search folders; a file is searched as its folder plus an include glob.
    if (isFile && tool.params.includes('include')) {
      input[pathKey] = join(root, dirname(step.in));
      input.include = step.in.split('/').pop();
    } else input[pathKey] = join(root, step.in);
    // Claude Code's Grep lists matching files by default; the model asks for the lines, as it does to read them.
    if (tool.params.includes('output_mode')) input.output_mode = 'content';
    if (tool.params.includes('-n')) input['-n'] = true;
    return { name: tool.name, input, say };
  }
  if ('edit' in step) {
    const tool = pick(tools, NAMES.edit);
    if (tool !== undefined) {
      const input: Record<string, unknown> = {
        [key(tool, PATH_KEYS)]: join(root, step.edit),
        [key(tool, ['old_string', 'oldString'])]: step.old,
        [key(tool, ['new_string', 'newString'])]: step.new,
      };
      // Gemini CLI's replace requires an `instruction`: what the edit does, which the step's text says.
      if (tool.params.includes('instruction')) input.instruction = say;
      return { name: tool.name, input, say };
    }
    const patch = patchOf(step.edit, step.old, step.new);
    const apply = pick(tools, ['apply_patch']);
    if (apply?.kind === 'custom') return { name: apply.name, input: patch, say };
    if (apply !== undefined) return { name: apply.name, input: { [key(apply, ['input', 'patch'])]: patch }, say };
    return shellCall(tools, `apply_patch <<'PATCH'\n${patch}\nPATCH`, say);
  }
  return shellCall(tools, step.bash, say);
}

/** True when a request offers the tools of the main loop (a read, edit or shell tool), not a side query. */
export function isAgentRequest(tools: readonly DeclaredTool[]): boolean {
  return pick(tools, [...NAMES.read, ...NAMES.edit, ...NAMES.bash, 'apply_patch']) !== undefined;
}

/**
 * How one tool call looks in ACP (`tool_call` / `tool_call_update`): its title, kind, the files it touches and
 * its content (edits as `diff`, everything else as text). Reads only the call's input (mca's own names) and its
 * result envelope; the tool's definition gives the kind and the display title.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind, PlanEntry } from '@agentclientprotocol/sdk';
import type { ToolDefinition } from '../tools/define-tool.js';
import type { ToolEnvelope } from '../tools/envelope.js';

/** A result's text shown in the editor is cut here (the model got its own, bounded copy). */
export const CONTENT_MAX_CHARS = 20_000;

type Input = Record<string, unknown>;

function inputOf(value: unknown): Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Input) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function clip(value: string): string {
  return value.length <= CONTENT_MAX_CHARS ? value : `${value.slice(0, CONTENT_MAX_CHARS)}\n… [cut for display]`;
}

export function toolTitle(tool: string, definition: ToolDefinition | undefined, input: unknown): string {
  let subject = '';
  try {
    subject = definition?.display?.title?.(inputOf(input)) ?? '';
  } catch {
    subject = '';
  }
  if (subject === '' && tool === 'Bash') subject = text(inputOf(input).command) ?? '';
  const line = subject.split('\n')[0] ?? '';
  return line === '' ? tool : `${tool} ${line.slice(0, 200)}`;
}

export function toolKind(definition: ToolDefinition | undefined): ToolKind {
  return definition?.kind ?? 'other';
}

/** The file a call names (`path`, absolute in ACP) and, for Read, the line it starts at. */
export function toolLocations(projectRoot: string, input: unknown): ToolCallLocation[] {
  const fields = inputOf(input);
  const path = text(fields.path);
  if (path === undefined || path === '') return [];
  const absolute = isAbsolute(path) ? path : resolve(projectRoot, path);
  const line = typeof fields.start_line === 'number' && fields.start_line > 0 ? fields.start_line : undefined;
  return [line === undefined ? { path: absolute } : { path: absolute, line }];
}

/** The proposed change of an edit tool as ACP diffs (shown at the permission question and in the call). */
export function editDiffs(projectRoot: string, tool: string, input: unknown): ToolCallContent[] {
  const fields = inputOf(input);
  const path = text(fields.path);
  if (path === undefined) return [];
  const absolute = isAbsolute(path) ? path : resolve(projectRoot, path);
  if (tool === 'Write') {
    const content = text(fields.content);
    return content === undefined ? [] : [{ type: 'diff', path: absolute, oldText: null, newText: clip(content) }];
  }
  const edits = tool === 'MultiEdit' && Array.isArray(fields.edits) ? fields.edits.map(inputOf) : [fields];
  if (tool !== 'Edit' && tool !== 'MultiEdit') return [];
  return edits.flatMap((edit) => {
    const oldText = text(edit.old_string);
    const newText = text(edit.new_string);
    return oldText === undefined || newText === undefined
      ? []
      : [{ type: 'diff' as const, path: absolute, oldText: clip(oldText), newText: clip(newText) }];
  });
}

/** What a finished call shows: an edit's diffs, or the result's text (a command's output, an error). */
export function resultContent(
  projectRoot: string,
  tool: string,
  input: unknown,
  result: ToolEnvelope,
): ToolCallContent[] {
  if (result.status !== 'error') {
    const diffs = editDiffs(projectRoot, tool, input);
    if (diffs.length > 0) return diffs;
  }
  const shown = result.status === 'error' ? (result.error?.message ?? result.text) : result.text;
  if (shown.trim() === '') return [];
  return [{ type: 'content', content: { type: 'text', text: clip(shown) } }];
}

/** TodoWrite's list as an ACP plan (cancelled items are left out: ACP has no such status). */
export function planEntries(input: unknown): PlanEntry[] | undefined {
  const todos = inputOf(input).todos;
  if (!Array.isArray(todos)) return undefined;
  return todos.map(inputOf).flatMap((todo) => {
    const content = text(todo.content);
    const status = todo.status;
    if (content === undefined) return [];
    if (status !== 'pending' && status !== 'in_progress' && status !== 'completed') return [];
    return [{ content, status, priority: 'medium' as const }];
  });
}

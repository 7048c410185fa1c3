/**
 * How one tool call looks in ACP (`tool_call` / `tool_call_update`): its title, kind, the files it touches and
 * its content (edits as `diff`, everything else as text). Reads the call's input (mca's own names) and its result
 * envelope through the tool's definition: its kind, display title, proposed changes, start line and plan. No tool
 * is known here by its name.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind, PlanEntry } from '@agentclientprotocol/sdk';
import type { ProposedChange, ToolDefinition } from '../tools/registry/define-tool.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';

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
    const fields = inputOf(input);
    subject = definition?.display?.title?.(fields) || (definition?.command?.(fields) ?? '');
  } catch {
    subject = '';
  }
  const line = subject.split('\n')[0] ?? '';
  return line === '' ? tool : `${tool} ${line.slice(0, 200)}`;
}

export function toolKind(definition: ToolDefinition | undefined): ToolKind {
  return definition?.kind ?? 'other';
}

function absolute(projectRoot: string, path: string): string {
  return isAbsolute(path) ? path : resolve(projectRoot, path);
}

/** The file or directory a call names (`path`, absolute in ACP), at the line its definition says it starts. */
export function toolLocations(
  projectRoot: string,
  definition: ToolDefinition | undefined,
  input: unknown,
): ToolCallLocation[] {
  const fields = inputOf(input);
  const path = text(fields.path);
  if (path === undefined || path === '') return [];
  let line: number | undefined;
  try {
    line = definition?.display?.line?.(fields);
  } catch {
    line = undefined;
  }
  return [line === undefined ? { path: absolute(projectRoot, path) } : { path: absolute(projectRoot, path), line }];
}

/** The change a call proposes, as ACP diffs (shown at the permission question and in the call): its definition's. */
export function editDiffs(
  projectRoot: string,
  definition: ToolDefinition | undefined,
  input: unknown,
): ToolCallContent[] {
  let changes: ProposedChange[] = [];
  try {
    changes = definition?.display?.changes?.(inputOf(input)) ?? [];
  } catch {
    changes = [];
  }
  return changes.map((change) => ({
    type: 'diff' as const,
    path: absolute(projectRoot, change.path),
    oldText: change.oldText === null ? null : clip(change.oldText),
    newText: clip(change.newText),
  }));
}

/** What a finished call shows: an edit's diffs, or the result's text (a command's output, an error). */
export function resultContent(
  projectRoot: string,
  definition: ToolDefinition | undefined,
  input: unknown,
  result: ToolEnvelope,
): ToolCallContent[] {
  if (result.status !== 'error') {
    const diffs = editDiffs(projectRoot, definition, input);
    if (diffs.length > 0) return diffs;
  }
  const shown = result.status === 'error' ? (result.error?.message ?? result.text) : result.text;
  if (shown.trim() === '') return [];
  return [{ type: 'content', content: { type: 'text', text: clip(shown) } }];
}

/** A call's list as an ACP plan (its definition's `plan`; items of a status ACP lacks, such as cancelled, are left out). */
export function planEntries(definition: ToolDefinition | undefined, input: unknown): PlanEntry[] | undefined {
  const items = definition?.display?.plan?.(inputOf(input));
  if (items === undefined) return undefined;
  return items.flatMap(({ content, status }) =>
    status === 'pending' || status === 'in_progress' || status === 'completed'
      ? [{ content, status, priority: 'medium' as const }]
      : [],
  );
}

/**
 * A continued session (`-c`, `--resume`) remembers which files its earlier runs read or wrote (DESIGN.md "Tools and
 * envelope": Write/Edit need a prior Read in the session). The record is rebuilt from the session's history: each
 * file whose newest successful Read, Write, Edit or MultiEdit result is in history counts as read, with its stamp on
 * disk now, unless the file changed after that result was recorded (its mtime is later): then the agent must read it
 * again, as in a running session after an outside change.
 */
import { statSync } from 'node:fs';
import type { Message } from '../context/message.js';
import type { FileStateRecord } from '../tools/files/file-state.js';
import { resolveInProject } from '../tools/files/workspace.js';

/** The tools whose success leaves the agent knowing a file's content. */
const KNOWING_TOOLS = new Set(['Read', 'Write', 'Edit', 'MultiEdit']);

/** The stored (compressed) result of a tool message says it succeeded. */
function succeeded(content: string): boolean {
  return /^\s*\{\s*"status"\s*:\s*"(?:success|partial)"/.test(content);
}

/** Records in `fileState` every file the history shows as read or written and unchanged since. */
export function restoreFileState(messages: readonly Message[], projectRoot: string, fileState: FileStateRecord): void {
  /** Newest recorded time of a knowing result, by the path its call named. */
  const knownAt = new Map<string, number>();
  for (const message of messages) {
    const { action, toolName, ts } = message.metadata;
    if (message.role !== 'tool' || toolName === undefined || !KNOWING_TOOLS.has(toolName)) continue;
    const path = (action?.input as { path?: unknown } | null | undefined)?.path;
    const at = Date.parse(ts);
    if (typeof path !== 'string' || !Number.isFinite(at) || !succeeded(message.content)) continue;
    knownAt.set(path, Math.max(knownAt.get(path) ?? 0, at));
  }
  for (const [path, at] of knownAt) {
    const resolved = resolveInProject(projectRoot, path);
    if (!resolved.ok || fileState.has(resolved.absolute)) continue;
    try {
      const info = statSync(resolved.absolute);
      // Changed after the result was recorded: not what the agent saw.
      if (!info.isFile() || Math.floor(info.mtimeMs) > at) continue;
      fileState.record(resolved.absolute, { mtimeMs: info.mtimeMs, size: info.size });
    } catch {
      // Gone since: nothing to remember.
    }
  }
}

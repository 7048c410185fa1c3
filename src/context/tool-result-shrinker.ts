/**
 * Degradation level 2 (DESIGN.md "Compaction", from spec 004): a compressed tool message shrinks further to
 * `{"status", "tool", "ref"?, "summary": "<one line>"}`. Works on any content, including malformed JSON. The line
 * is the tool's own `shrink` member; a tool without one gets `result of <n> characters`.
 */
import { clip, isRecord, isString } from '../text/json-guards.js';
import { toolNamed } from '../tools/registry/tool-catalog.js';

const SUMMARY_CHARS = 200;

function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim(), SUMMARY_CHARS);
}

function parse(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return undefined;
  }
}

/** The one-line form of a compressed tool message (degradation level 2). Always valid JSON; never throws. */
export function shrinkToolMessage(content: string, toolName: string): string {
  const parsed = parse(content);
  const record = isRecord(parsed) ? parsed : undefined;
  const status = record !== undefined && isString(record.status) ? record.status : 'unknown';
  let summary: string | undefined;
  if (record !== undefined && isRecord(record.error)) {
    summary = `${String(record.error.code ?? 'ERROR')}: ${String(record.error.message ?? '')}`;
  } else if (record !== undefined && isRecord(record.data)) {
    try {
      summary = toolNamed(toolName)?.shrink?.(record.data);
    } catch {
      summary = undefined;
    }
  }
  summary ??= `result of ${content.length} characters`;
  // The tool-memory reference survives shrinking: the one-line form names what it dropped.
  const ref = record !== undefined && isString(record.ref) ? { ref: clip(record.ref, 40) } : {};
  return JSON.stringify({ status, tool: toolName, ...ref, summary: oneLine(summary) });
}

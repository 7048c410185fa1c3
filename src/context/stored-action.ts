/**
 * What history keeps of an action's input (DESIGN.md "History never holds a giant twice"): the tool already
 * holds the full value (the file on disk, the command's result), so a big string (Write content, Edit strings,
 * a heredoc command) is kept as its size plus head and tail. The same shortened input goes into the stored
 * assistant text and into `metadata.action`, so nothing big is stored twice.
 */
import type { ToolAction } from './message.js';

export const STORED_ACTION_LIMITS = Object.freeze({
  /** Strings up to this many characters are kept verbatim. */
  stringChars: 2_000,
  headChars: 600,
  tailChars: 300,
  /** Depth past which nested values are not walked (the parser already refuses deeper input). */
  depth: 64,
});

/** `head … [N chars omitted of M] … tail` for a string over the limit; the string itself otherwise. */
export function shortenString(value: string): string {
  const { stringChars, headChars, tailChars } = STORED_ACTION_LIMITS;
  if (value.length <= stringChars) return value;
  const omitted = value.length - headChars - tailChars;
  return `${value.slice(0, headChars)}\n… [${omitted} of ${value.length} chars omitted in history] …\n${value.slice(-tailChars)}`;
}

function shortenValue(value: unknown, depth: number, changed: { any: boolean }): unknown {
  if (typeof value === 'string') {
    const short = shortenString(value);
    if (short !== value) changed.any = true;
    return short;
  }
  if (depth >= STORED_ACTION_LIMITS.depth || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((entry) => shortenValue(entry, depth + 1, changed));
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) result[key] = shortenValue(entry, depth + 1, changed);
  return result;
}

/** The action as history stores it, and whether any value was shortened. */
export function storedAction(action: ToolAction): { action: ToolAction; shortened: boolean } {
  const changed = { any: false };
  const input = shortenValue(action.input, 0, changed);
  return changed.any ? { action: { tool: action.tool, input }, shortened: true } : { action, shortened: false };
}

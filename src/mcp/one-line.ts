/** An MCP server's words (an error, its name or version) as one short line, safe to print to a terminal. */
import { neutralizeControlSequences } from '../text/terminal-safe.js';

export function oneLine(text: string): string {
  const line = neutralizeControlSequences(text.replace(/\s+/g, ' ').trim());
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** An error's message (or the thrown value as text). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * How hook text is made safe to show: a hook's output is text mca did not write, so every control sequence is
 * neutralised (terminal-safe.ts) before it reaches the terminal or the model, and long text is cut with a visible
 * marker.
 */
import { neutralizeControlSequences } from '../text/terminal-safe.js';

/** The most of one hook's text that reaches the model or the user (Claude Code's cap for hook output). */
export const HOOK_TEXT_MAX_CHARS = 10_000;

/** `text` neutralised and cut to `max` characters with a marker saying how much was left out. */
export function safeText(text: string, max = HOOK_TEXT_MAX_CHARS): string {
  const clean = neutralizeControlSequences(text);
  if (clean.length <= max) return clean;
  return `${clean.slice(0, max)}… [${clean.length - max} more characters cut]`;
}

/** A command as named in one line (first line, at most 60 characters). */
export function shortCommand(command: string): string {
  const firstLine = command.trim().split('\n')[0] ?? '';
  const clipped = firstLine.length > 60 ? `${firstLine.slice(0, 59)}…` : firstLine;
  return JSON.stringify(neutralizeControlSequences(clipped + (command.trim().includes('\n') ? ' …' : '')));
}

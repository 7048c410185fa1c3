/**
 * Turns a custom command and its arguments into the prompt the model gets: `$ARGUMENTS` is the whole argument
 * text, `$1`…`$9` the shell-split words, and every `` !`command` `` is run (through `runShell`, which applies the
 * permission rules and trust) with its output inlined. `@file` mentions stay in the text: the input preprocessor
 * turns them into the usual reminder to read the file.
 */
import { parse } from 'shell-quote';
import type { CustomCommand } from './custom-commands.js';

/** Runs one `!` command and returns the text to inline (its output, or why it did not run). */
export type CommandShell = (command: string) => Promise<string>;

const SHELL_PATTERN = /!`([^`\n]+)`/g;
export const INLINED_OUTPUT_MAX_CHARS = 20_000;

/** Shell-like words of the argument text; anything shell-quote would expand or join stays a plain word. */
export function argumentWords(args: string): string[] {
  try {
    const words = parse(args, (name) => `$${name}`);
    if (words.every((word) => typeof word === 'string')) return words;
  } catch {
    // Unbalanced quotes and the like: fall back to whitespace.
  }
  return args.split(/\s+/).filter((word) => word !== '');
}

export function substituteArguments(body: string, args: string): string {
  const words = argumentWords(args);
  return body.replace(/\$ARGUMENTS|\$([1-9])/g, (token, digit: string | undefined) =>
    digit === undefined ? args : (words[Number(digit) - 1] ?? ''),
  );
}

export function capInlined(output: string): string {
  const trimmed = output.replace(/\s+$/, '');
  if (trimmed.length <= INLINED_OUTPUT_MAX_CHARS) return trimmed;
  return `${trimmed.slice(0, INLINED_OUTPUT_MAX_CHARS)}\n[… output cut at ${INLINED_OUTPUT_MAX_CHARS.toLocaleString('en-US')} characters]`;
}

export async function expandCustomCommand(
  command: CustomCommand,
  args: string,
  runShell: CommandShell,
): Promise<string> {
  const body = substituteArguments(command.body, args.trim());
  const pieces: string[] = [];
  let last = 0;
  for (const match of body.matchAll(SHELL_PATTERN)) {
    pieces.push(body.slice(last, match.index));
    pieces.push(capInlined(await runShell(match[1] ?? '')));
    last = match.index + match[0].length;
  }
  pieces.push(body.slice(last));
  const text = pieces.join('').trim();
  // A command without $ARGUMENTS still passes what the user typed after it, as Claude Code does.
  const usesArguments = /\$ARGUMENTS|\$[1-9]/.test(command.body);
  return !usesArguments && args.trim() !== '' ? `${text}\n\nARGUMENTS: ${args.trim()}` : text;
}

/**
 * Turns a custom command and its arguments into the prompt the model gets: `$ARGUMENTS` is the whole argument
 * text, `$1`…`$9` the shell-split words, and every `` !`command` `` is run (through `runShell`, which applies the
 * permission rules and trust) with its output inlined. `@file` mentions stay in the text: the input preprocessor
 * turns them into the usual reminder to read the file.
 *
 * The `!` lines are found in the command file before anything is substituted, and the arguments go into them only
 * as quoted data (quote-command-line.ts): arguments are whatever was typed or piped in (`curl …diff | mca -p
 * /review`), and they must never add a line that runs or turn into shell syntax inside one.
 */
import { parse } from 'shell-quote';
import type { CustomCommand } from './custom-commands.js';
import { quoteArgumentsInto } from './quote-command-line.js';

/** Runs one `!` command and returns the text to inline (its output, or why it did not run). */
export type CommandShell = (command: string) => Promise<string>;

const SHELL_PATTERN = /!`([^`\n]+)`/g;
const ARGUMENT_PATTERN = /\$ARGUMENTS|\$[1-9]/g;
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

/** The value of `$ARGUMENTS` or `$1`…`$9` (empty when there is no such word). */
export function argumentValue(token: string, args: string, words: readonly string[]): string {
  return token === '$ARGUMENTS' ? args : (words[Number(token.slice(1)) - 1] ?? '');
}

/** Prose: placeholders replaced by the plain argument text. */
export function substituteArguments(body: string, args: string, words = argumentWords(args)): string {
  return body.replace(ARGUMENT_PATTERN, (token) => argumentValue(token, args, words));
}

export function capInlined(output: string): string {
  const trimmed = output.replace(/\s+$/, '');
  if (trimmed.length <= INLINED_OUTPUT_MAX_CHARS) return trimmed;
  return `${trimmed.slice(0, INLINED_OUTPUT_MAX_CHARS)}\n[… output cut at ${INLINED_OUTPUT_MAX_CHARS.toLocaleString('en-US')} characters]`;
}

/**
 * A command's prompt, and the text `@` mentions may come from: the file as written with the user's arguments, never
 * the output of its `!` lines (a file or a program's text is not the user's word).
 */
export interface ExpandedCommand {
  prompt: string;
  mentionText: string;
}

export async function expandCustomCommand(
  command: CustomCommand,
  args: string,
  runShell: CommandShell,
): Promise<ExpandedCommand> {
  const text = args.trim();
  const words = argumentWords(text);
  const body = command.body;
  const pieces: string[] = [];
  const own: string[] = [];
  let last = 0;
  // The `!` lines of the file as written; the arguments are substituted afterwards, piece by piece.
  for (const match of body.matchAll(SHELL_PATTERN)) {
    pieces.push(substituteArguments(body.slice(last, match.index), text, words));
    own.push(pieces.at(-1) ?? '');
    const line = quoteArgumentsInto(match[1] ?? '', (token) => argumentValue(token, text, words));
    pieces.push(capInlined(await runShell(line)));
    last = match.index + match[0].length;
  }
  pieces.push(substituteArguments(body.slice(last), text, words));
  own.push(pieces.at(-1) ?? '');
  const prompt = pieces.join('').trim();
  // A command without $ARGUMENTS still passes what the user typed after it, as Claude Code does.
  const usesArguments = /\$ARGUMENTS|\$[1-9]/.test(command.body);
  const extra = !usesArguments && text !== '' ? `\n\nARGUMENTS: ${text}` : '';
  return { prompt: `${prompt}${extra}`, mentionText: `${own.join('\n')}${extra}` };
}

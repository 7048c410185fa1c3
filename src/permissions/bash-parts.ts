/**
 * Splits a Bash command into the simple commands a permission rule is matched against. `npm test && curl x | sh`
 * is three parts: `npm test`, `curl x`, `sh`. Parsing uses shell-quote; whatever it cannot represent faithfully
 * (command or process substitution, variable expansion, a newline, a redirect that writes a file) makes the
 * command `opaque`: an allow rule never matches it, so it is asked (REPL) or denied (-p).
 */
import { parse, type ParseEntry } from 'shell-quote';

export type BashParts =
  | { kind: 'parts'; parts: string[] }
  | { kind: 'opaque'; reason: string; /** a rough split, only for finding deny/ask rules */ roughParts: string[] };

/** Text that shell-quote would flatten into something it is not (substitutions run code; a newline separates). */
const UNPARSEABLE: ReadonlyArray<[RegExp, string]> = [
  [/[\n\r]/, 'it spans several lines'],
  [/`/, 'it contains a backtick command substitution'],
  [/\$\(/, 'it contains a $( ) command substitution'],
  [/\$\{/, 'it contains a ${ } expansion'],
  [/[<>]\(/, 'it contains a process substitution'],
];

const SEPARATORS: ReadonlySet<string> = new Set(['&&', '||', ';', ';;', '|', '|&', '&', '(', ')']);
/** Redirects that only duplicate or discard a stream are harmless; one that names a file writes or reads it. */
const REDIRECTS: ReadonlySet<string> = new Set(['>', '>>', '<', '>&', '<&', '>|', '&>', '&>>']);
const HARMLESS_REDIRECT_TARGET = /^(?:\d+|-|\/dev\/null)$/;

function roughSplit(command: string): string[] {
  return command
    .split(/&&|\|\||[;|&\n\r()`]|\$\(/)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter((part) => part !== '');
}

function opaque(command: string, reason: string): BashParts {
  return { kind: 'opaque', reason, roughParts: roughSplit(command) };
}

/** The simple commands of `command`, each normalised to its words joined by one space. */
export function splitBashCommand(command: string): BashParts {
  for (const [pattern, reason] of UNPARSEABLE) {
    if (pattern.test(command)) return opaque(command, reason);
  }
  let entries: ParseEntry[];
  let expanded = false;
  try {
    entries = parse(command, (name) => {
      expanded = true;
      return { op: `$${name}` } as unknown as string;
    });
  } catch (error) {
    return opaque(command, `it cannot be parsed (${(error as Error).message})`);
  }
  if (expanded) return opaque(command, 'it expands a variable');
  const parts: string[] = [];
  let words: string[] = [];
  const flush = (): void => {
    if (words.length > 0) parts.push(words.join(' '));
    words = [];
  };
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index];
    if (typeof entry === 'string') {
      words.push(entry);
      continue;
    }
    if (entry === undefined || 'comment' in entry) continue;
    if ('pattern' in entry) {
      words.push(entry.pattern);
      continue;
    }
    if (SEPARATORS.has(entry.op)) {
      flush();
      continue;
    }
    if (REDIRECTS.has(entry.op)) {
      const target = entries[index + 1];
      if (typeof target !== 'string') return opaque(command, `a ${entry.op} redirect has no plain target`);
      const writes = entry.op !== '<';
      if (writes && !HARMLESS_REDIRECT_TARGET.test(target)) {
        return opaque(command, `it redirects output to ${target}`);
      }
      // A trailing file descriptor number (`2>&1`) belongs to the redirect, not the command.
      if (entry.op === '>&' && /^\d$/.test(words[words.length - 1] ?? '')) words.pop();
      index += 1;
      continue;
    }
    return opaque(command, `it uses the shell operator ${entry.op}`);
  }
  flush();
  if (parts.length === 0) return opaque(command, 'it has no command');
  return { kind: 'parts', parts };
}

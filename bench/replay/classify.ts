/**
 * Classifies a recorded command as the nearest mca tool (BENCHMARKS.md "Action mapping"): file views → Read,
 * grep/rg/search_* → Grep, ls → LS, find/find_file → Glob, in-place edits and file-writing scripts → Edit,
 * heredoc files → Write, everything else → Bash. An edit anywhere in a compound command wins over the rest.
 */
import type { RecordedCall } from './trajectory.js';
import { splitCommands, stripHeredocs, type SimpleCommand } from './shell-words.js';

export type Classified =
  | { kind: 'Read'; path: string; startLine: number }
  | { kind: 'Grep'; pattern: string; path: string }
  | { kind: 'LS'; path: string }
  | { kind: 'Glob'; pattern: string; path: string }
  | { kind: 'Edit'; path: string; oldString?: string; newString?: string; startLine?: number }
  | { kind: 'Write'; path: string; content: string }
  | { kind: 'Bash'; command: string };

const VIEWERS = new Set(['nl', 'cat', 'sed', 'head', 'tail']);
const FILTERS = new Set(['sed', 'head', 'tail', 'nl', 'sort', 'uniq', 'cut', 'awk']);
const GREP_OPTIONS_WITH_VALUE = new Set(['-e', '-m', '-A', '-B', '-C', '-f', '--include', '--exclude', '-g', '-t']);

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The recorded call's command text (`input.command`, or a rendering of structured inputs). */
export function commandOf(call: RecordedCall): string {
  const command = str(call.input.command);
  return command !== '' ? command : `${call.tool} ${JSON.stringify(call.input)}`;
}

function operands(words: readonly string[]): string[] {
  return words.slice(1).filter((word) => !word.startsWith('-'));
}

/** `sed -n '3,40p'` → 3 (the first line a view prints). */
function sedStart(words: readonly string[]): number | undefined {
  for (const word of words) {
    const range = /^(\d+)(?:,(\d+))?p$/.exec(word);
    if (range !== null) return Number(range[1]);
  }
  return undefined;
}

function isSedScript(word: string): boolean {
  return /^\d+(,\d+)?p$/.test(word);
}

function withoutOrTrue(commands: SimpleCommand[]): SimpleCommand[] {
  return commands.filter(
    (command, index) =>
      !(index > 0 && commands[index - 1]?.next === '||' && ['true', ':', 'echo'].includes(command.words[0] ?? '')),
  );
}

function classifyEdit(commands: SimpleCommand[], bodies: string[]): Classified | undefined {
  for (const [index, command] of commands.entries()) {
    const [name = '', ...rest] = command.words;
    const inPlace = rest.some((word) => /^-[a-zA-Z0-9]*i/.test(word) && !word.startsWith('--'));
    if ((name === 'sed' || name === 'perl') && inPlace) {
      const script = rest.find((word) => /^s(.).*\1.*\1[gI]*$/.test(word));
      const parts = script !== undefined ? script.split(script[1] ?? '/') : [];
      return {
        kind: 'Edit',
        path: operands(command.words).pop() ?? '(unknown)',
        ...(parts.length >= 3 ? { oldString: parts[1] ?? '', newString: parts[2] ?? '' } : {}),
      };
    }
    if (name === 'mv' && index > 0) return { kind: 'Edit', path: operands(command.words).pop() ?? '(unknown)' };
    if (name === 'git' && rest[0] === 'apply') return { kind: 'Edit', path: '(patch)' };
    if (name === 'patch') return { kind: 'Edit', path: '(patch)' };
  }
  const script = bodies.join('\n');
  if (/write_text\(|\.write\(|open\([^)]*['"][wa]['"]/.test(script)) {
    const target = /(?:Path|open)\(\s*['"]([^'"]+)['"]/.exec(script)?.[1];
    return { kind: 'Edit', path: target ?? '(unknown)' };
  }
  const first = commands[0];
  const redirect = first?.redirects[0];
  if ((first?.words[0] === 'cat' || first?.words[0] === 'tee') && bodies.length > 0 && redirect !== undefined) {
    if (!redirect.startsWith('/tmp/') || commands.length === 1) {
      return { kind: 'Write', path: redirect, content: bodies[0] ?? '' };
    }
  }
  return undefined;
}

function classifyView(commands: SimpleCommand[]): Classified | undefined {
  const first = commands[0];
  if (first === undefined || !VIEWERS.has(first.words[0] ?? '') || first.redirects.length > 0) return undefined;
  if (first.words[0] === 'sed' && !first.words.includes('-n')) return undefined;
  for (const [index, command] of commands.entries()) {
    if (index > 0 && (commands[index - 1]?.next !== '|' || !FILTERS.has(command.words[0] ?? ''))) return undefined;
    if (command.redirects.some((target) => target !== '/dev/null')) return undefined;
  }
  const files = operands(first.words).filter((word) => !isSedScript(word) && !/^\d+$/.test(word));
  if (files.length !== 1 || (first.words[0] === 'cat' && commands.length > 1 && files.length !== 1)) return undefined;
  let start = 1;
  for (const command of commands) {
    if (command.words[0] === 'sed') start = sedStart(command.words) ?? start;
  }
  return { kind: 'Read', path: files[0] ?? '', startLine: start };
}

function classifySearch(commands: SimpleCommand[]): Classified | undefined {
  const first = commands[0];
  if (first === undefined) return undefined;
  let words = first.words;
  if (words[0] === 'git' && words[1] === 'grep') words = words.slice(1);
  const name = words[0] ?? '';
  if (['grep', 'egrep', 'rg'].includes(name)) {
    const args: string[] = [];
    for (let index = 1; index < words.length; index += 1) {
      const word = words[index] ?? '';
      if (GREP_OPTIONS_WITH_VALUE.has(word)) {
        if (word === '-e') args.push(words[index + 1] ?? '');
        index += 1;
      } else if (!word.startsWith('-')) args.push(word);
    }
    return { kind: 'Grep', pattern: args[0] ?? '', path: args[1] ?? '.' };
  }
  if (name === 'ls') return { kind: 'LS', path: operands(words).pop() ?? '.' };
  if (name === 'find') {
    const nameAt = words.findIndex((word) => ['-name', '-iname', '-path'].includes(word));
    const pattern = nameAt >= 0 ? (words[nameAt + 1] ?? '*') : '*';
    return { kind: 'Glob', pattern, path: words[1] !== undefined && !words[1].startsWith('-') ? words[1] : '.' };
  }
  return undefined;
}

function classifyBash(command: string): Classified {
  const { rest, bodies } = stripHeredocs(command);
  const commands = withoutOrTrue(splitCommands(rest));
  return (
    classifyEdit(commands, bodies) ??
    (bodies.length === 0 ? (classifyView(commands) ?? classifySearch(commands)) : undefined) ?? {
      kind: 'Bash',
      command,
    }
  );
}

/** SWE-agent's own tools, in their ACI text form (`open f 40`) or function-calling form (`{path}`). */
function classifyAci(call: RecordedCall): Classified | undefined {
  const command = str(call.input.command);
  const words = splitCommands(command.split('\n')[0] ?? '')[0]?.words ?? [];
  switch (call.tool) {
    case 'open':
      return { kind: 'Read', path: str(call.input.path) || (words[1] ?? ''), startLine: 1 };
    case 'create':
      return { kind: 'Write', path: str(call.input.filename) || (words[1] ?? ''), content: '' };
    case 'find_file':
      return { kind: 'Glob', pattern: str(call.input.file_name) || (words[1] ?? ''), path: str(call.input.dir) || '.' };
    case 'search_dir':
    case 'search_file':
      return { kind: 'Grep', pattern: words[1] ?? '', path: words[2] ?? '.' };
    case 'edit':
    case 'insert': {
      const range = /^edit (\d+):(\d+)\n([\s\S]*?)\nend_of_edit/.exec(command);
      if (range !== null)
        return { kind: 'Edit', path: '(open file)', newString: range[3] ?? '', startLine: Number(range[1]) };
      const replace = str(call.input.replace) || str(call.input.text);
      return { kind: 'Edit', path: '(open file)', oldString: str(call.input.search), newString: replace };
    }
    default:
      return undefined;
  }
}

export function classifyCall(call: RecordedCall): Classified {
  if (call.tool !== 'bash') return classifyAci(call) ?? { kind: 'Bash', command: commandOf(call) };
  return classifyBash(commandOf(call));
}

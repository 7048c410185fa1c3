/**
 * What a Bash command means to the permission rules, from bash's own grammar (bash-syntax.ts):
 * - `parts`: every simple command it runs (those inside `$( )`, backticks, `<( )`, subshells, groups and loop
 *   bodies included), each as its words; an allow rule must cover every one of them;
 * - `blocker`: why no allow rule can vouch for it (something the parser cannot model, a word whose value is only
 *   known at run time, a redirect that writes or opens a file); only a rule for the whole tool then allows it;
 * - `denyCandidates`: every command a deny or ask rule is checked against, a superset of `parts`: the command
 *   behind assignments and wrappers (`env`, `xargs`, `sudo`, `timeout`, `find -exec`, …), a path's base name, and
 *   what `eval`, `sh -c`, `trap` and `alias` would parse. A candidate whose command is unknown (a variable, an
 *   unparseable text) may be anything, so every deny rule may match it.
 */
import { parseBash, type Redirect, type SimpleCommand, type Word } from './bash-syntax.js';

export type { Word } from './bash-syntax.js';

export interface CommandPart {
  words: Word[];
  /** The words joined by one space, for messages and approval labels. */
  text: string;
}

export interface BashAnalysis {
  parts: CommandPart[];
  blocker?: string;
  denyCandidates: Word[][];
}

export type BashParts =
  | { kind: 'parts'; parts: string[] }
  | { kind: 'opaque'; reason: string; /** the commands deny and ask rules are checked against */ roughParts: string[] };

/** A command that may be anything: every deny rule may match it. */
const UNKNOWN: Word[] = [{ text: '<unknown command>', kind: 'dynamic', why: 'an unknown command' }];

/** Commands that run the command named by (some of) their arguments. */
const WRAPPERS: ReadonlySet<string> = new Set([
  'env',
  'command',
  'builtin',
  'exec',
  'nohup',
  'time',
  'nice',
  'timeout',
  'xargs',
  'sudo',
  'doas',
  'stdbuf',
  'setsid',
  'ionice',
  'chrt',
  'taskset',
  'unbuffer',
  'watch',
  'strace',
  'ltrace',
  'nsenter',
  'chroot',
  'flock',
  'parallel',
  'caffeinate',
]);
/** Shells: their arguments may be a command string (`-c`) to parse. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'busybox']);
/** Builtins whose arguments bash parses as commands. */
const EVALUATORS: ReadonlySet<string> = new Set(['eval', 'trap', 'alias']);
const FIND_EXEC: ReadonlySet<string> = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const MAX_NESTING = 4;
/** Beyond this many arguments a wrapper's command is not searched for (quadratic); it may be anything. */
const MAX_WRAPPED_WORDS = 256;

function joinWords(words: readonly Word[]): string {
  return words.map((word) => word.text).join(' ');
}

function roughSplit(command: string): string[] {
  return command
    .split(/&&|\|\||[;|&\n\r()`]|\$\(/)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter((part) => part !== '');
}

function literalWords(text: string): Word[] {
  return text
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => ({ text: word, kind: 'literal' }));
}

/** Why a redirect makes the command more than its words, or undefined when it only moves or discards a stream. */
function redirectEffect(redirect: Redirect): string | undefined {
  const { op, target } = redirect;
  if (op === '<<' || op === '<<-' || op === '<<<') return undefined;
  const literal = target.kind === 'literal' ? target.text : undefined;
  if ((op === '>&' || op === '<&') && literal !== undefined && /^(?:\d+-?|-)$/.test(literal)) return undefined;
  if (literal === '/dev/null') return undefined;
  // Reading a file by a relative path inside the project is what the command's arguments could do too; an absolute
  // path, `..`, /dev/tcp or /proc is not.
  if (op === '<' && literal !== undefined && !literal.startsWith('/') && !/(?:^|\/)\.\.(?:\/|$)/.test(literal)) {
    return undefined;
  }
  const shown = target.text;
  if (op === '<') return `it reads from ${shown}`;
  if (op === '<>') return `it opens ${shown} for reading and writing`;
  if (op === '<&') return `it duplicates input from ${shown}`;
  return `it redirects output to ${shown}`;
}

function blockerOf(command: SimpleCommand): string | undefined {
  if (command.unknown) return command.unknown;
  const dynamic = command.words.find((word) => word.kind === 'dynamic');
  if (dynamic) return `it contains ${dynamic.why ?? 'an expansion'}`;
  for (const redirect of command.redirects) {
    const effect = redirectEffect(redirect);
    if (effect) return effect;
  }
  return undefined;
}

function baseName(text: string): string {
  return text.replace(/\/+$/, '').split('/').pop() ?? text;
}

/** The deny candidates for one simple command's words (assignments already removed). */
function candidatesOf(words: Word[], nesting: number, out: Word[][]): void {
  if (words.length === 0) return;
  if (nesting > MAX_NESTING) {
    out.push(UNKNOWN);
    return;
  }
  out.push(words);
  const [first, ...rest] = words;
  if (first === undefined) return;
  if (first.kind !== 'literal') return;
  const name = baseName(first.text);
  if (name !== first.text && name !== '') candidatesOf([{ text: name, kind: 'literal' }, ...rest], nesting, out);
  if (WRAPPERS.has(name)) {
    // Options of wrappers vary; every suffix may be the command they run. A suffix that is itself a wrapper is
    // covered by these suffixes; one that is a path, a shell or eval is looked into.
    if (rest.length > MAX_WRAPPED_WORDS) {
      out.push(UNKNOWN);
      return;
    }
    rest.forEach((word, index) => {
      const suffix = rest.slice(index);
      out.push(suffix);
      if (word.kind !== 'literal' || WRAPPERS.has(word.text)) return;
      if (word.text.includes('/') || SHELLS.has(word.text) || EVALUATORS.has(word.text) || word.text === 'find') {
        candidatesOf(suffix, nesting + 1, out);
      }
    });
  }
  if (name === 'find') {
    if (rest.length > MAX_WRAPPED_WORDS) {
      out.push(UNKNOWN);
      return;
    }
    rest.forEach((word, index) => {
      if (word.kind === 'literal' && FIND_EXEC.has(word.text)) candidatesOf(rest.slice(index + 1), nesting, out);
    });
  }
  if (SHELLS.has(name) || EVALUATORS.has(name)) {
    // eval joins every argument into the text it runs (`eval sh -c` runs `sh -c`); only a leading `--` is its own.
    // The others' dash words are their options (`sh -e -c …`, `trap -p`).
    const texts =
      name === 'eval'
        ? rest.filter((word, index) => !(index === 0 && word.kind === 'literal' && word.text === '--'))
        : rest.filter((word) => !(word.kind === 'literal' && word.text.startsWith('-')));
    if (texts.some((word) => word.kind !== 'literal')) {
      out.push(UNKNOWN);
      return;
    }
    const sources =
      name === 'eval'
        ? [joinWords(texts)]
        : name === 'alias'
          ? texts.map((word) => word.text.replace(/^[^=]*=/, ''))
          : texts.map((word) => word.text);
    for (const source of sources) innerCandidates(source, nesting + 1, out);
  }
}

/** The deny candidates of a text bash will parse as commands later (`eval`, `sh -c`). */
function innerCandidates(source: string, nesting: number, out: Word[][]): void {
  if (nesting > MAX_NESTING) {
    out.push(UNKNOWN);
    return;
  }
  const parsed = parseBash(source);
  if (!parsed.ok) {
    for (const text of roughSplit(source)) out.push(literalWords(text));
    out.push(UNKNOWN);
    return;
  }
  for (const command of parsed.commands) {
    if (command.unknown) out.push(UNKNOWN);
    candidatesOf(command.words.slice(command.assignments), nesting, out);
  }
}

/** Whether a command named `name` runs a command given in its arguments (a wrapper, a shell, eval). */
export function runsOtherCommands(name: string): boolean {
  const base = baseName(name);
  return (
    WRAPPERS.has(base) ||
    SHELLS.has(base) ||
    EVALUATORS.has(base) ||
    base === 'find' ||
    base === 'source' ||
    base === '.'
  );
}

/** The permission view of one Bash command line. */
export function analyzeBashCommand(command: string): BashAnalysis {
  const parsed = parseBash(command);
  if (!parsed.ok) {
    const rough = roughSplit(command).map(literalWords);
    return {
      parts: rough.map((words) => ({ words, text: joinWords(words) })),
      blocker: `bash's reading of it cannot be checked: ${parsed.reason}`,
      denyCandidates: [...rough, UNKNOWN],
    };
  }
  const parts: CommandPart[] = [];
  const denyCandidates: Word[][] = [];
  let blocker: string | undefined;
  for (const simple of parsed.commands) {
    blocker ??= blockerOf(simple);
    if (simple.unknown) denyCandidates.push(UNKNOWN);
    if (simple.words.length > 0) parts.push({ words: simple.words, text: joinWords(simple.words) });
    candidatesOf(simple.words.slice(simple.assignments), 0, denyCandidates);
  }
  if (parts.length === 0) blocker ??= 'it has no command';
  return blocker === undefined ? { parts, denyCandidates } : { parts, blocker, denyCandidates };
}

/** The simple commands of `command` as text, or why no allow rule can match it (with what deny rules see). */
export function splitBashCommand(command: string): BashParts {
  const analysis = analyzeBashCommand(command);
  if (analysis.blocker !== undefined) {
    return { kind: 'opaque', reason: analysis.blocker, roughParts: analysis.denyCandidates.map(joinWords) };
  }
  return { kind: 'parts', parts: analysis.parts.map((part) => part.text) };
}

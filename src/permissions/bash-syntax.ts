/**
 * A parser for the part of bash's grammar a permission rule needs: which simple commands a `bash -c` line runs,
 * their words after quote removal, and their redirects. It follows bash's lexing rules (a `#` starts a comment only
 * at the start of a word; blanks are space and tab; `\` newline joins lines; '…', "…", $'…', $"…", here-documents)
 * and descends into `$( )`, backticks, `<( )`, `>( )`, subshells, groups and `if`/`while`/`until`/`for` bodies.
 * Whatever it does not model exactly (case, [[ ]], (( )), functions, arrays, coproc, a here-document inside a
 * substitution, …) fails with a reason: the caller then never lets an allow rule match the command.
 */
import { BashLexer } from './bash-lexer.js';
import { METACHAR, Unsupported, type Redirect, type SimpleCommand, type WordScan } from './bash-words.js';

export type { Redirect, SimpleCommand, Word, WordKind } from './bash-words.js';

export type ParseResult = { ok: true; commands: SimpleCommand[] } | { ok: false; reason: string };

/** Reserved words that only open or continue a compound command: what follows them is a command. */
const PREFIX_WORDS = new Set(['!', '{', 'if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time']);
/** Reserved words that close a compound command: only redirects or an operator may follow. */
const CLOSING_WORDS = new Set(['}', 'fi', 'done']);
const UNSUPPORTED_WORDS = new Set(['case', 'esac', 'select', 'function', 'coproc', '[[', ']]', 'in']);
const MAX_DEPTH = 16;
/** Nested ( and $( levels followed; deeper is unknown (and the stack stays small). */
const MAX_LEVEL = 64;

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
  level: number;
}

class Parser extends BashLexer {
  private pending: PendingHeredoc[] = [];
  private level = 0;

  constructor(
    src: string,
    commands: SimpleCommand[],
    private readonly depth: number,
  ) {
    super(src, commands);
    if (depth > MAX_DEPTH) throw new Unsupported('it nests substitutions too deeply');
  }

  /** Parses a command list up to the end, or up to the `)` that closes a subshell or substitution. */
  parseList(closer: ')' | undefined): void {
    let needCommand = false;
    let hadCommand = false;
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === '') {
        if (closer) throw new Unsupported('a ( or $( is not closed');
        if (needCommand) throw new Unsupported('it ends with an operator that expects a command');
        if (this.pending.length > 0) throw new Unsupported('a here-document is not terminated');
        return;
      }
      if (c === '#') {
        while (this.pos < this.src.length && this.peek() !== '\n') this.pos += 1;
        continue;
      }
      if (c === '\n') {
        this.pos += 1;
        this.readHeredocBodies();
        if (!needCommand) hadCommand = false;
        continue;
      }
      if (c === ')') {
        if (closer !== ')') throw new Unsupported('it has an unmatched )');
        if (needCommand) throw new Unsupported('an operator before ) expects a command');
        this.pos += 1;
        return;
      }
      const operator = this.readOperator();
      if (operator !== undefined) {
        if (operator === ';;' || operator === ';&' || operator === ';;&') {
          throw new Unsupported(`it uses ${operator} outside a case`);
        }
        if (needCommand || !hadCommand) throw new Unsupported(`${operator} has no command before it`);
        needCommand = operator !== ';' && operator !== '&';
        hadCommand = false;
        continue;
      }
      if (c === '(') {
        if (this.peek(1) === '(') throw new Unsupported('it uses a (( )) arithmetic command');
        this.pos += 1;
        this.level += 1;
        if (this.level > MAX_LEVEL) throw new Unsupported('it nests ( and $( too deeply');
        this.parseList(')');
        this.level -= 1;
        this.parseCommand(true);
      } else {
        const kind = this.parseCommand(false);
        if (kind === 'prefix') {
          needCommand = true;
          continue;
        }
      }
      needCommand = false;
      hadCommand = true;
    }
  }

  private readOperator(): string | undefined {
    for (const op of [';;&', ';;', ';&', '&&', '||', '|&', ';', '|']) {
      if (this.at(op)) {
        this.pos += op.length;
        return op;
      }
    }
    if (this.peek() === '&' && this.peek(1) !== '>') {
      this.pos += 1;
      return '&';
    }
    return undefined;
  }

  /**
   * One simple command (or the redirects after a subshell or a closing reserved word). Returns 'prefix' for a
   * reserved word that opens a compound command: the next token starts a command again.
   */
  private parseCommand(afterCompound: boolean): 'prefix' | 'command' {
    const command: SimpleCommand = { words: [], assignments: 0, redirects: [] };
    let closed = afterCompound;
    let forHeader = false;
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === '' || c === '\n' || c === ';' || c === '|' || c === ')' || c === '#') break;
      if (c === '&' && this.peek(1) !== '>') break;
      if (c === '(') throw new Unsupported('it uses ( inside a command (a function definition or an array)');
      if ((c === '<' || c === '>') && this.peek(1) !== '(') {
        command.redirects.push(this.readRedirect(undefined));
        continue;
      }
      if (c === '&') {
        command.redirects.push(this.readRedirect(undefined));
        continue;
      }
      const scan = this.readWord();
      const next = this.peek();
      if (scan.digits && (next === '<' || next === '>') && this.peek(1) !== '(') {
        command.redirects.push(this.readRedirect(scan.word.text));
        continue;
      }
      if (!scan.quoted && /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(scan.word.text) && (next === '<' || next === '>')) {
        throw new Unsupported('it uses a {variable} redirect');
      }
      if (closed) throw new Unsupported(`a word follows a closed compound command: ${scan.word.text}`);
      const atStart = command.words.length === 0 && command.redirects.length === 0 && !forHeader;
      if (atStart && !scan.quoted && scan.word.kind === 'literal') {
        const text = scan.word.text;
        if (text === 'time') this.skipTimeOptions();
        if (PREFIX_WORDS.has(text)) return 'prefix';
        if (CLOSING_WORDS.has(text)) {
          closed = true;
          continue;
        }
        if (UNSUPPORTED_WORDS.has(text)) throw new Unsupported(`it uses the shell keyword ${text}`);
        if (text === 'for') {
          this.readForHeader();
          forHeader = true;
          continue;
        }
      }
      if (forHeader) continue; // the words after `for x in`: their substitutions are recorded, they run nothing
      if (command.words.length === command.assignments && this.isAssignment(scan)) {
        command.assignments += 1;
      }
      command.words.push(scan.word);
    }
    if (command.words.length > 0 || command.redirects.length > 0 || command.unknown) this.commands.push(command);
    return 'command';
  }

  /** `time -p --`: the options of the time keyword are not a command. */
  private skipTimeOptions(): void {
    for (;;) {
      this.skipBlanks();
      if ((this.at('-p') || this.at('--')) && METACHAR.has(this.peek(2) || ' ')) this.pos += 2;
      else return;
    }
  }

  private isAssignment(scan: WordScan): boolean {
    const shape = /^[A-Za-z_][A-Za-z0-9_]*(\[|\+?=)/.exec(scan.shape);
    if (!shape) return false;
    if (shape[1] === '[') throw new Unsupported('it assigns an array element');
    return true;
  }

  /** `for NAME` then optionally `in`; the word list is read as the (not run) rest of the command. */
  private readForHeader(): void {
    this.skipBlanks();
    if (this.at('((')) throw new Unsupported('it uses an arithmetic for loop');
    const name = this.readWord();
    if (name.quoted || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.word.text)) {
      throw new Unsupported('a for loop has no plain variable name');
    }
    const save = this.pos;
    while (this.peek() === ' ' || this.peek() === '\t' || this.peek() === '\n') this.pos += 1;
    if (this.at('in') && METACHAR.has(this.peek(2) || ' ')) this.pos += 2;
    else this.pos = save;
  }

  private readRedirect(fd: string | undefined): Redirect {
    let op = '';
    for (const candidate of ['&>>', '&>', '<<<', '<<-', '<<', '<>', '<&', '>>', '>|', '>&', '<', '>']) {
      if (this.at(candidate)) {
        op = candidate;
        break;
      }
    }
    if (op === '' || (fd !== undefined && op.startsWith('&'))) throw new Unsupported('it has a malformed redirect');
    this.pos += op.length;
    this.skipBlanks();
    const c = this.peek();
    if (c === '#') throw new Unsupported(`a ${op} redirect is followed by a comment`);
    if (c === '' || METACHAR.has(c)) {
      if (!((c === '<' || c === '>') && this.peek(1) === '(')) throw new Unsupported(`a ${op} redirect has no target`);
    }
    const target = this.readWord();
    if (op === '<<' || op === '<<-') {
      if (target.word.kind !== 'literal') throw new Unsupported('a here-document delimiter is not plain text');
      this.pending.push({
        delimiter: target.word.text,
        stripTabs: op === '<<-',
        expands: !target.quoted,
        level: this.level,
      });
    }
    return { op, fd, target: target.word };
  }

  /** After a newline: the bodies of the here-documents started on the line before it. */
  private readHeredocBodies(): void {
    const pending = this.pending;
    this.pending = [];
    for (const heredoc of pending) {
      if (heredoc.level !== this.level) throw new Unsupported('a here-document crosses a ( or $( boundary');
      const lines: string[] = [];
      for (;;) {
        if (this.pos >= this.src.length) throw new Unsupported('a here-document is not terminated');
        const end = this.src.indexOf('\n', this.pos);
        const line = this.src.slice(this.pos, end === -1 ? this.src.length : end);
        this.pos = end === -1 ? this.src.length : end + 1;
        const compared = heredoc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === heredoc.delimiter) break;
        if (end === -1) throw new Unsupported('a here-document is not terminated');
        lines.push(line);
      }
      if (heredoc.expands) {
        const body = lines.join('\n');
        if (/\\\n/.test(body)) throw new Unsupported('a here-document body continues a line with \\');
        const inner = new Parser(body, this.commands, this.depth + 1);
        inner.readDoubleQuoted(undefined);
      }
    }
  }

  /** After `$(`, `<(` or `>(`: the command list inside, recorded like any other. */
  protected substitution(): void {
    if (this.pending.length > 0) throw new Unsupported('a substitution follows a here-document on its line');
    this.level += 1;
    if (this.level > MAX_LEVEL) throw new Unsupported('it nests ( and $( too deeply');
    this.parseList(')');
    this.level -= 1;
  }

  /** After an opening backtick: the text up to the closing one, with \` \$ \\ unescaped, parsed as commands. */
  protected backtick(): void {
    let inner = '';
    for (;;) {
      const c = this.peek();
      if (c === '') throw new Unsupported('a backtick is not closed');
      this.pos += 1;
      if (c === '`') break;
      if (c === '\\' && this.peek() === '"') throw new Unsupported('a backtick substitution escapes a quote');
      if (c === '\\' && '`$\\'.includes(this.peek()) && this.peek() !== '') {
        inner += this.peek();
        this.pos += 1;
        continue;
      }
      inner += c;
    }
    if (/\\\n/.test(inner)) throw new Unsupported('a backtick substitution continues a line');
    const parser = new Parser(inner, this.commands, this.depth + 1);
    parser.parseList(undefined);
  }
}

/** The simple commands `bash -c source` would run, or why they cannot be known exactly. */
export function parseBash(source: string): ParseResult {
  const commands: SimpleCommand[] = [];
  try {
    new Parser(source, commands, 0).parseList(undefined);
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, reason: error.message };
    throw error;
  }
  return { ok: true, commands };
}

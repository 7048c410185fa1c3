/**
 * A parser for the part of bash's grammar a permission rule needs: which simple commands a `bash -c` line runs,
 * their words after quote removal, and their redirects. It follows bash's lexing rules (a `#` starts a comment only
 * at the start of a word; blanks are space and tab; `\` newline joins lines; '…', "…", $'…', $"…", here-documents)
 * and descends into `$( )`, backticks, `<( )`, `>( )`, subshells, groups and `if`/`while`/`until`/`for` bodies.
 * Whatever it does not model exactly (case, [[ ]], (( )), functions, arrays, coproc, a here-document inside a
 * substitution, …) fails with a reason: the caller then never lets an allow rule match the command.
 */

/** literal: known exactly; expanded: glob, brace or tilde (runs nothing, value unknown); dynamic: expansion. */
export type WordKind = 'literal' | 'expanded' | 'dynamic';

export interface Word {
  /** The value after quote removal when literal; the source text of expansions otherwise. */
  text: string;
  kind: WordKind;
  /** For a dynamic word: the construct that made it so ("a variable expansion"). */
  why?: string;
}

export interface Redirect {
  /** `>`, `>>`, `<`, `<>`, `>|`, `>&`, `<&`, `&>`, `&>>`, `<<`, `<<-`, `<<<`. */
  op: string;
  fd: string | undefined;
  /** The target word (the delimiter of a here-document). */
  target: Word;
}

export interface SimpleCommand {
  /** Assignment words first (`FOO=1`), then the command and its arguments. */
  words: Word[];
  assignments: number;
  redirects: Redirect[];
  /** Set when bash evaluates text as code at run time in a way this parser cannot follow. */
  unknown?: string;
}

export type ParseResult = { ok: true; commands: SimpleCommand[] } | { ok: false; reason: string };

class Unsupported extends Error {}

const BLANK = new Set([' ', '\t']);
/** Characters that end an unquoted word. */
const METACHAR = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
/** Reserved words that only open or continue a compound command: what follows them is a command. */
const PREFIX_WORDS = new Set(['!', '{', 'if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time']);
/** Reserved words that close a compound command: only redirects or an operator may follow. */
const CLOSING_WORDS = new Set(['}', 'fi', 'done']);
const UNSUPPORTED_WORDS = new Set(['case', 'esac', 'select', 'function', 'coproc', '[[', ']]', 'in']);
const MAX_DEPTH = 16;

interface WordScan {
  word: Word;
  /** Unquoted digits only: a file descriptor when a redirect operator follows directly. */
  digits: boolean;
  quoted: boolean;
  /** The unquoted characters, quoted ones replaced by a placeholder (for brace, tilde and assignment shapes). */
  shape: string;
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
  level: number;
}

const ANSI_SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Globs (`*`, `?`, `[…]`), tilde (at the start or after = or : in an assignment) and braces (`{a,b}`, `{1..3}`). */
function expandsByShape(shape: string): boolean {
  return (
    /[*?]|\[[^]*\]/.test(shape) ||
    /^~/.test(shape) ||
    /\{[^]*(,|\.\.)[^]*\}/.test(shape) ||
    /^[A-Za-z_][A-Za-z0-9_]*\+?=(.*[:=])?~/.test(shape)
  );
}

class Parser {
  pos = 0;
  private pending: PendingHeredoc[] = [];
  private level = 0;

  constructor(
    private readonly src: string,
    readonly commands: SimpleCommand[],
    private readonly depth: number,
  ) {
    if (depth > MAX_DEPTH) throw new Unsupported('it nests substitutions too deeply');
  }

  private peek(offset = 0): string {
    return this.src[this.pos + offset] ?? '';
  }

  /** Skips `\` newline pairs (bash removes them before tokenising, outside single quotes). */
  private skipContinuations(): void {
    while (this.src[this.pos] === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
  }

  private skipBlanks(): void {
    for (;;) {
      this.skipContinuations();
      if (!BLANK.has(this.peek())) return;
      this.pos += 1;
    }
  }

  private at(text: string): boolean {
    return this.src.startsWith(text, this.pos);
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

  /** Reads one word (the caller has checked it does not start with an operator or a comment). */
  readWord(): WordScan {
    let text = '';
    let shape = '';
    let quoted = false;
    let kind: WordKind = 'literal';
    let why: string | undefined;
    const dynamic = (reason: string): void => {
      if (kind !== 'dynamic') why = reason;
      kind = 'dynamic';
    };
    const start = this.pos;
    for (;;) {
      this.skipContinuations();
      const c = this.peek();
      if (c === '') break;
      if ((c === '<' || c === '>') && this.peek(1) === '(') {
        const from = this.pos;
        this.pos += 2;
        this.substitution();
        text += this.src.slice(from, this.pos);
        shape += 'Q';
        dynamic('a process substitution');
        continue;
      }
      if (METACHAR.has(c)) {
        if (c === '(') throw new Unsupported('it uses ( inside a word');
        break;
      }
      if (c === '\\') {
        const next = this.peek(1);
        this.pos += next === '' ? 1 : 2;
        text += next === '' ? '\\' : next;
        shape += 'Q';
        quoted = true;
        continue;
      }
      if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end === -1) throw new Unsupported('a single quote is not closed');
        text += this.src.slice(this.pos + 1, end);
        shape += 'Q';
        quoted = true;
        this.pos = end + 1;
        continue;
      }
      if (c === '"') {
        this.pos += 1;
        const inner = this.readDoubleQuoted('"');
        text += inner.text;
        if (inner.why) dynamic(inner.why);
        shape += 'Q';
        quoted = true;
        continue;
      }
      if (c === '$' && this.peek(1) === "'") {
        this.pos += 2;
        text += this.readAnsiC();
        shape += 'Q';
        quoted = true;
        continue;
      }
      if (c === '$' && this.peek(1) === '"') {
        this.pos += 2;
        const inner = this.readDoubleQuoted('"');
        text += inner.text;
        dynamic(inner.why ?? 'a $"…" locale translation');
        shape += 'Q';
        quoted = true;
        continue;
      }
      if (c === '$' || c === '`') {
        const from = this.pos;
        const reason = this.expansion();
        if (reason !== undefined) {
          text += this.src.slice(from, this.pos);
          shape += 'Q';
          dynamic(reason);
          continue;
        }
      }
      text += c;
      shape += c;
      this.pos += 1;
    }
    if (this.pos === start) throw new Unsupported('it has an empty word where a word was expected');
    const word: Word =
      (kind as WordKind) === 'dynamic'
        ? { text, kind: 'dynamic', why: why ?? 'an expansion' }
        : { text, kind: expandsByShape(shape) ? 'expanded' : 'literal' };
    return { word, digits: !quoted && /^\d+$/.test(text), quoted, shape };
  }

  /**
   * The inside of "…" (or, with no terminator, an expanding here-document body): `\` escapes only $ ` " \ and
   * newline; $ and ` expand. Returns the text and, when something expands, why the value is dynamic.
   */
  readDoubleQuoted(terminator: '"' | undefined): { text: string; why?: string } {
    let text = '';
    let why: string | undefined;
    for (;;) {
      const c = this.peek();
      if (c === '') {
        if (terminator) throw new Unsupported('a double quote is not closed');
        return why === undefined ? { text } : { text, why };
      }
      if (c === terminator) {
        this.pos += 1;
        return why === undefined ? { text } : { text, why };
      }
      if (c === '\\') {
        const next = this.peek(1);
        const escapes = terminator ? '$`"\\\n' : '$`\\\n';
        if (next !== '' && escapes.includes(next)) {
          if (next !== '\n') text += next;
          this.pos += 2;
        } else {
          text += c;
          this.pos += 1;
        }
        continue;
      }
      if (c === '$' || c === '`') {
        const from = this.pos;
        const reason = this.expansion();
        if (reason !== undefined) {
          text += this.src.slice(from, this.pos);
          why ??= reason;
          continue;
        }
      }
      text += c;
      this.pos += 1;
    }
  }

  /** At `$` or a backtick: consumes an expansion and says what it is, or undefined for a literal `$`. */
  private expansion(): string | undefined {
    const c = this.peek();
    if (c === '`') {
      this.pos += 1;
      this.backtick();
      return 'a backtick command substitution';
    }
    const next = this.peek(1);
    if (next === '(' && this.peek(2) === '(') {
      this.pos += 3;
      const inside = this.arithmeticBody();
      if (/[`$]/.test(inside)) throw new Unsupported('an arithmetic expansion contains an expansion');
      if (/[A-Za-z_]/.test(inside)) this.markUnknown('an arithmetic expansion evaluates variables');
      return 'an arithmetic expansion';
    }
    if (next === '(') {
      this.pos += 2;
      this.substitution();
      return 'a $( ) command substitution';
    }
    if (next === '[') throw new Unsupported('it uses a $[ ] arithmetic expansion');
    if (next === '{') {
      this.pos += 2;
      const inside = this.braceBody();
      if (/[`]|\$[({[]|[<>]\(/.test(inside)) throw new Unsupported('a ${ } expansion contains a substitution');
      if (/@P|\[|^[!#]?[A-Za-z_0-9]*:[^-=?+]/.test(inside)) {
        this.markUnknown('a ${ } expansion evaluates its value');
      }
      return 'a ${ } expansion';
    }
    if (/[A-Za-z_]/.test(next)) {
      this.pos += 1;
      while (/[A-Za-z0-9_]/.test(this.peek())) this.pos += 1;
      return 'a variable expansion';
    }
    if (/[0-9@*#?$!-]/.test(next) && next !== '') {
      this.pos += 2;
      return 'a variable expansion';
    }
    return undefined;
  }

  private markUnknown(reason: string): void {
    this.commands.push({ words: [], assignments: 0, redirects: [], unknown: reason });
  }

  /** After `$((`: the text up to the `))` that closes it. */
  private arithmeticBody(): string {
    const from = this.pos;
    let depth = 0;
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (c === '(') depth += 1;
      if (c === ')') {
        if (depth === 0) {
          if (this.peek(1) !== ')') break;
          const inside = this.src.slice(from, this.pos);
          this.pos += 2;
          return inside;
        }
        depth -= 1;
      }
      this.pos += 1;
    }
    throw new Unsupported('a $(( is not closed by ))');
  }

  /** After `${`: the text up to the `}` that closes it; quotes and escapes are skipped over. */
  private braceBody(): string {
    const from = this.pos;
    let depth = 0;
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (c === '\\') {
        this.pos += 2;
        continue;
      }
      if (c === "'" || c === '"') throw new Unsupported('a ${ } expansion holds quotes');
      if (c === '{') depth += 1;
      if (c === '}') {
        if (depth === 0) {
          const inside = this.src.slice(from, this.pos);
          this.pos += 1;
          return inside;
        }
        depth -= 1;
      }
      this.pos += 1;
    }
    throw new Unsupported('a ${ is not closed');
  }

  /** After `$(`, `<(` or `>(`: the command list inside, recorded like any other. */
  private substitution(): void {
    if (this.pending.length > 0) throw new Unsupported('a substitution follows a here-document on its line');
    this.level += 1;
    this.parseList(')');
    this.level -= 1;
  }

  /** After an opening backtick: the text up to the closing one, with \` \$ \\ unescaped, parsed as commands. */
  private backtick(): void {
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

  /** After `$'`: the ANSI-C quoted text with its escapes decoded. */
  private readAnsiC(): string {
    let text = '';
    for (;;) {
      const c = this.peek();
      if (c === '') throw new Unsupported("a $' quote is not closed");
      this.pos += 1;
      if (c === "'") return text;
      if (c !== '\\') {
        text += c;
        continue;
      }
      const e = this.peek();
      this.pos += 1;
      const simple = ANSI_SIMPLE[e];
      if (simple !== undefined) {
        text += simple;
        continue;
      }
      const code = this.ansiNumber(e);
      if (code === undefined) {
        text += `\\${e}`;
        continue;
      }
      if (code === 0) throw new Unsupported("a $' quote holds a NUL character");
      text += String.fromCodePoint(code);
    }
  }

  private ansiNumber(e: string): number | undefined {
    const take = (pattern: RegExp, max: number): string => {
      let digits = '';
      while (digits.length < max && pattern.test(this.peek())) {
        digits += this.peek();
        this.pos += 1;
      }
      return digits;
    };
    if (/[0-7]/.test(e)) {
      this.pos -= 1;
      const value = Number.parseInt(take(/[0-7]/, 3), 8) & 0xff;
      if (value > 0x7f) throw new Unsupported("a $' quote holds a raw byte");
      return value;
    }
    const hexMax = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (hexMax > 0) {
      const digits = take(/[0-9A-Fa-f]/, hexMax);
      if (digits === '') return undefined;
      const value = Number.parseInt(digits, 16);
      if (e === 'x' && value > 0x7f) throw new Unsupported("a $' quote holds a raw byte");
      if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
        throw new Unsupported("a $' quote holds an invalid code point");
      return value;
    }
    if (e === 'c') throw new Unsupported("a $' quote uses a \\c control escape");
    return undefined;
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

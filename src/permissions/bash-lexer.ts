/**
 * The word level of the bash parser (bash-syntax.ts builds the grammar on it): one word with bash's quoting
 * ('…', "…", $'…', $"…", backslash, `\\` newline) and expansions ($name, ${…}, $((…)), $(…), backticks,
 * <(…), >(…)), its value after quote removal when that is known, and what made it dynamic when it is not.
 */
import {
  BLANK,
  decodeAnsiC,
  expandsByShape,
  METACHAR,
  Unsupported,
  type SimpleCommand,
  type Word,
  type WordKind,
  type WordScan,
} from './bash-words.js';

export abstract class BashLexer {
  pos = 0;

  constructor(
    protected readonly src: string,
    readonly commands: SimpleCommand[],
  ) {}

  /** After `$(`, `<(` or `>(`: the command list inside, up to its `)`. */
  protected abstract substitution(): void;
  /** After an opening backtick: the commands up to the closing one. */
  protected abstract backtick(): void;

  protected peek(offset = 0): string {
    return this.src[this.pos + offset] ?? '';
  }

  /** Skips `\` newline pairs (bash removes them before tokenising, outside single quotes). */
  protected skipContinuations(): void {
    while (this.src[this.pos] === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
  }

  protected skipBlanks(): void {
    for (;;) {
      this.skipContinuations();
      if (!BLANK.has(this.peek())) return;
      this.pos += 1;
    }
  }

  protected at(text: string): boolean {
    return this.src.startsWith(text, this.pos);
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
        const decoded = decodeAnsiC(this.src, this.pos + 2);
        this.pos = decoded.end;
        text += decoded.text;
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

  protected markUnknown(reason: string): void {
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
}

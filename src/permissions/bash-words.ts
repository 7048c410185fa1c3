/**
 * What a Bash word is to the permission rules, and the pure helpers of the lexer: ANSI-C quote decoding and the
 * shapes that make bash expand a word (globs, braces, tilde).
 */
import { McaError } from '../errors/mca-error.js';

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

/** A construct the parser does not model exactly: the caller treats the command as unknown. */
export class Unsupported extends McaError {
  readonly code = 'UNSUPPORTED_SHELL_SYNTAX' as const;
}

export const BLANK: ReadonlySet<string> = new Set([' ', '\t']);
/** Characters that end an unquoted word. */
export const METACHAR: ReadonlySet<string> = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

export interface WordScan {
  word: Word;
  /** Unquoted digits only: a file descriptor when a redirect operator follows directly. */
  digits: boolean;
  quoted: boolean;
  /** The unquoted characters, quoted ones replaced by a placeholder (for brace, tilde and assignment shapes). */
  shape: string;
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
export function expandsByShape(shape: string): boolean {
  // Index checks, not backtracking patterns: a word may be megabytes long.
  if (/[*?~]/.test(shape) && (/[*?]/.test(shape) || tildeExpands(shape))) return true;
  const bracket = shape.indexOf('[');
  if (bracket !== -1 && shape.indexOf(']', bracket + 1) !== -1) return true;
  const brace = shape.indexOf('{');
  if (brace === -1) return false;
  const close = shape.lastIndexOf('}');
  if (close <= brace) return false;
  const inside = shape.slice(brace + 1, close);
  return inside.includes(',') || inside.includes('..');
}

/** A tilde at the start, or in an assignment's value at its start or after a colon. */
function tildeExpands(shape: string): boolean {
  if (shape.startsWith('~')) return true;
  const assignment = /^[A-Za-z_][A-Za-z0-9_]*\+?=/.exec(shape);
  if (!assignment) return false;
  const value = shape.slice(assignment[0].length);
  return value.startsWith('~') || value.includes(':~');
}

/** Decodes the ANSI-C quoted text starting at `from` (just after `$'`); returns it and the index after the `'`. */
export function decodeAnsiC(src: string, from: number): { text: string; end: number } {
  let pos = from;
  let text = '';
  const take = (pattern: RegExp, max: number): string => {
    let digits = '';
    while (digits.length < max && pattern.test(src[pos] ?? '')) {
      digits += src[pos];
      pos += 1;
    }
    return digits;
  };
  const codePoint = (value: number, limit: number): string => {
    if (value === 0) throw new Unsupported("a $' quote holds a NUL character");
    if (value > limit) throw new Unsupported("a $' quote holds a raw byte");
    if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
      throw new Unsupported("a $' quote holds an invalid code point");
    }
    return String.fromCodePoint(value);
  };
  for (;;) {
    const c = src[pos] ?? '';
    if (c === '') throw new Unsupported("a $' quote is not closed");
    pos += 1;
    if (c === "'") return { text, end: pos };
    if (c !== '\\') {
      text += c;
      continue;
    }
    const e = src[pos] ?? '';
    pos += 1;
    const simple = ANSI_SIMPLE[e];
    if (simple !== undefined) {
      text += simple;
    } else if (/[0-7]/.test(e)) {
      pos -= 1;
      text += codePoint(Number.parseInt(take(/[0-7]/, 3), 8) & 0xff, 0x7f);
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const digits = take(/[0-9A-Fa-f]/, e === 'x' ? 2 : e === 'u' ? 4 : 8);
      text += digits === '' ? `\\${e}` : codePoint(Number.parseInt(digits, 16), e === 'x' ? 0x7f : 0x10ffff);
    } else if (e === 'c') {
      throw new Unsupported("a $' quote uses a \\c control escape");
    } else {
      text += `\\${e}`;
    }
  }
}

/**
 * Whether one rule's specifier matches one call. Bash specifiers match a simple command (see bash-parts.ts):
 * `npm test:*` is the prefix `npm test` (a word boundary follows), `npm run *` a wildcard, anything else the exact
 * command. Path specifiers are gitignore-like globs: `./x` and `/x` anchor at the project root, `//x` is absolute,
 * `~/x` is under the home directory, a pattern without a slash matches at any depth; a pattern naming a directory
 * covers everything under it.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import picomatch from 'picomatch';
import type { Word } from './bash-syntax.js';

function normalizeWords(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

type BashSpecifier =
  | { kind: 'prefix'; words: string[] }
  | { kind: 'exact'; words: string[] }
  | { kind: 'wildcard'; pattern: RegExp; head: string };

function compileBashSpecifier(specifier: string): BashSpecifier {
  const spec = normalizeWords(specifier);
  if (spec.endsWith(':*')) return { kind: 'prefix', words: spec.slice(0, -2).trim().split(' ') };
  if (spec.includes('*')) {
    const pattern = new RegExp(`^${spec.split('*').map(escapeRegExp).join('.*')}$`, 's');
    return { kind: 'wildcard', pattern, head: spec.slice(0, spec.indexOf('*')) };
  }
  return { kind: 'exact', words: spec.split(' ') };
}

/** Rules are checked on every tool call, for every part of a command: each specifier is compiled once. */
const specifierCache = new Map<string, BashSpecifier>();

function specifierOf(specifier: string): BashSpecifier {
  let compiled = specifierCache.get(specifier);
  if (!compiled) {
    compiled = compileBashSpecifier(specifier);
    specifierCache.set(specifier, compiled);
  }
  return compiled;
}

/**
 * Whether an allow rule covers one simple command for certain. Words are compared as bash splits them (a quoted
 * `"test x"` is one word, not `test` and `x`); the words a prefix or exact rule names must be literal, and a word
 * whose value is only known at run time (a variable, a substitution) is never covered.
 */
export function bashSpecifierCovers(specifier: string, words: readonly Word[]): boolean {
  if (words.some((word) => word.kind === 'dynamic')) return false;
  const spec = specifierOf(specifier);
  const literalAt = (index: number, text: string | undefined): boolean =>
    words[index]?.kind === 'literal' && words[index]?.text === text;
  if (spec.kind === 'prefix') {
    return words.length >= spec.words.length && spec.words.every((text, index) => literalAt(index, text));
  }
  if (spec.kind === 'exact') {
    return words.length === spec.words.length && spec.words.every((text, index) => words[index]?.text === text);
  }
  const firstSpecWord = spec.head.split(' ')[0] ?? '';
  if (!spec.head.startsWith(`${firstSpecWord} `) || literalAt(0, firstSpecWord)) {
    return spec.pattern.test(words.map((word) => word.text).join(' '));
  }
  return false;
}

/**
 * Whether a deny or ask rule may apply to one command: true when it matches, and also when a word it names is
 * only known at run time (`$CMD -rf x` may be `rm -rf x`), so such a rule is never dodged by an expansion.
 */
export function bashSpecifierMayMatch(specifier: string, words: readonly Word[]): boolean {
  const spec = specifierOf(specifier);
  const unknownFrom = words.findIndex((word) => word.kind !== 'literal');
  const known = unknownFrom === -1 ? words.length : unknownFrom;
  const texts = words.map((word) => word.text);
  if (spec.kind === 'wildcard') {
    if (unknownFrom === -1) return spec.pattern.test(texts.join(' '));
    const head = texts.slice(0, known).join(' ');
    return spec.head.startsWith(head) || head.startsWith(spec.head.trimEnd());
  }
  const agrees = spec.words.slice(0, known).every((text, index) => texts[index] === text);
  if (!agrees) return false;
  if (unknownFrom !== -1 && unknownFrom < Math.max(spec.words.length, spec.kind === 'exact' ? words.length : 0)) {
    return true;
  }
  if (spec.kind === 'prefix') return words.length >= spec.words.length;
  return words.length === spec.words.length;
}

/** Matches a Bash specifier against one command written as plain words separated by blanks. */
export function bashSpecifierMatches(specifier: string, command: string): boolean {
  const words: Word[] = normalizeWords(command)
    .split(' ')
    .filter((text) => text !== '')
    .map((text) => ({ text, kind: 'literal' }));
  return bashSpecifierCovers(specifier, words);
}

export interface PathContext {
  projectRoot: string;
  home?: string;
}

function absolutePattern(specifier: string, context: PathContext): string {
  const home = context.home ?? homedir();
  if (specifier.startsWith('//')) return specifier.slice(1);
  if (specifier.startsWith('~/')) return join(home, specifier.slice(2));
  if (specifier.startsWith('/')) return join(context.projectRoot, specifier.slice(1));
  if (specifier.startsWith('./')) return join(context.projectRoot, specifier.slice(2));
  if (!specifier.replace(/\/+$/, '').includes('/')) return join(context.projectRoot, '**', specifier);
  return join(context.projectRoot, specifier);
}

const matcherCache = new Map<string, (path: string) => boolean>();

function matcherFor(pattern: string): (path: string) => boolean {
  let matcher = matcherCache.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern.replace(/\/+$/, ''), { dot: true });
    matcherCache.set(pattern, matcher);
  }
  return matcher;
}

/** The path and every directory above it (gitignore semantics: a matching directory covers its contents). */
function selfAndAncestors(path: string): string[] {
  const paths = [path];
  let current = path;
  while (dirname(current) !== current) {
    current = dirname(current);
    paths.push(current);
  }
  return paths;
}

/**
 * The absolute paths a tool's `path` stands for: as written, and its real path when it exists (a symlink or
 * `a/../b` cannot dodge a deny rule).
 */
export function candidatePaths(rawPath: string, projectRoot: string): string[] {
  const lexical = isAbsolute(rawPath) ? resolve(rawPath) : resolve(projectRoot, rawPath);
  try {
    const real = realpathSync(lexical);
    return real === lexical ? [lexical] : [lexical, real];
  } catch {
    return [lexical];
  }
}

export function pathSpecifierMatches(specifier: string, path: string, context: PathContext): boolean {
  const matcher = matcherFor(absolutePattern(specifier, context));
  return selfAndAncestors(path).some((candidate) => matcher(candidate));
}

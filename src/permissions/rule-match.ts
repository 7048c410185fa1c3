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

function normalizeWords(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** A Bash specifier turned into a test of one normalised simple command; built once per specifier. */
function bashMatcherOf(specifier: string): (part: string) => boolean {
  const spec = normalizeWords(specifier);
  if (spec.endsWith(':*')) {
    const prefix = spec.slice(0, -2).trim();
    return (part) => part === prefix || part.startsWith(`${prefix} `);
  }
  if (spec.includes('*')) {
    const pattern = new RegExp(`^${spec.split('*').map(escapeRegExp).join('.*')}$`, 's');
    return (part) => pattern.test(part);
  }
  return (part) => part === spec;
}

/** Rules are checked on every tool call, for every part of a command: each specifier is compiled once. */
const bashMatcherCache = new Map<string, (part: string) => boolean>();

/** Matches a Bash specifier against one normalised simple command. */
export function bashSpecifierMatches(specifier: string, command: string): boolean {
  let matcher = bashMatcherCache.get(specifier);
  if (!matcher) {
    matcher = bashMatcherOf(specifier);
    bashMatcherCache.set(specifier, matcher);
  }
  return matcher(normalizeWords(command));
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

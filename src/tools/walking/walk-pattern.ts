/**
 * The lexical check of a glob a tool hands to a walker (Glob's `pattern`, Grep's `include`): it must stay below
 * the directory being walked. Absolute patterns and any segment that is, or can expand to, `..` are refused with
 * a message the model can act on. This is the first guard only: the walker itself never reads a directory or
 * yields a file whose real path is outside the project (walk-files.ts), whatever a pattern manages to say.
 */
import type { ToolError } from '../registry/envelope.js';

/** A brace range such as `{1..9}` or `{a..f}`: its `..` is a range, not a directory. */
const BRACE_RANGE = /\{-?[A-Za-z0-9]+\.\.-?[A-Za-z0-9]+(?:\.\.-?\d+)?\}/g;
/** More globs than this after brace expansion is refused: `{a,b}` 24 times is 16 million walks' worth of patterns. */
export const MAX_BRACE_EXPANSION = 4096;

/** A segment that is `..` once escapes are dropped and braces or extglobs expand (`\.\.`, `.{.,}`, `{..,x}`). */
function mayClimb(segment: string): boolean {
  const plain = segment.replace(/\\/g, '').replace(BRACE_RANGE, 'r');
  if (plain.includes('..')) return true;
  return /^[.{},()|@!+?]*$/.test(plain) && (plain.match(/\./g) ?? []).length >= 2;
}

function isAbsolutePattern(pattern: string): boolean {
  return /^[/\\~]/.test(pattern) || /^[A-Za-z]:/.test(pattern);
}

function rangeSize(body: string): number {
  const [from = '', to = ''] = body.split('..');
  const numeric = /^-?\d+$/.test(from) && /^-?\d+$/.test(to);
  const span = numeric ? Number(to) - Number(from) : to.charCodeAt(0) - from.charCodeAt(0);
  return Math.abs(span) + 1;
}

/**
 * An upper estimate of how many globs `pattern` expands to: the product over top-level brace groups of their
 * alternatives (commas at the group's own level + 1, or a range's length); nested groups count inside theirs.
 */
export function braceExpansion(pattern: string): number {
  let total = 1;
  let depth = 0;
  let start = 0;
  let alternatives = 1;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (char === '{') {
      if (depth === 0) {
        start = index;
        alternatives = 1;
      }
      depth += 1;
    } else if (char === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) {
        const body = pattern.slice(start + 1, index);
        total *= BRACE_RANGE.test(`{${body}}`) ? rangeSize(body) : alternatives * braceExpansion(body);
        BRACE_RANGE.lastIndex = 0;
      }
    } else if (char === ',' && depth === 1) alternatives += 1;
    if (total > Number.MAX_SAFE_INTEGER / 1e6) return total;
  }
  return total;
}

/** Undefined when `pattern` stays below its base; else the INVALID_PARAM error naming `field`. */
export function checkWalkPattern(field: string, pattern: string, example: string): ToolError | undefined {
  const expands = braceExpansion(pattern);
  if (expands > MAX_BRACE_EXPANSION) {
    return {
      code: 'INVALID_PARAM',
      message: `${field} "${pattern}" expands to about ${expands} patterns through its {…} groups (at most ${MAX_BRACE_EXPANSION}); use fewer groups or a wildcard.`,
    };
  }
  if (!isAbsolutePattern(pattern) && !pattern.split(/[/\\]/).some(mayClimb)) return undefined;
  return {
    code: 'INVALID_PARAM',
    message: `${field} "${pattern}" must be relative to "path" and must not contain "..": e.g. ${example}.`,
  };
}

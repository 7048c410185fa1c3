/**
 * The lexical check of a glob a tool hands to a walker (Glob's `pattern`, Grep's `include`): it must stay below
 * the directory being walked. Absolute patterns and any segment that is, or can expand to, `..` are refused with
 * a message the model can act on. This is the first guard only: the walker itself never reads a directory or
 * yields a file whose real path is outside the project (walk-files.ts), whatever a pattern manages to say.
 */
import type { ToolError } from './envelope.js';

/** A segment that is `..` once escapes are dropped and braces or extglobs expand (`\.\.`, `.{.,}`, `{..,x}`). */
function mayClimb(segment: string): boolean {
  const plain = segment.replace(/\\/g, '');
  if (plain.includes('..')) return true;
  return /^[.{},()|@!+?]*$/.test(plain) && (plain.match(/\./g) ?? []).length >= 2;
}

function isAbsolutePattern(pattern: string): boolean {
  return /^[/\\~]/.test(pattern) || /^[A-Za-z]:/.test(pattern);
}

/** Undefined when `pattern` stays below its base; else the INVALID_PARAM error naming `field`. */
export function checkWalkPattern(field: string, pattern: string, example: string): ToolError | undefined {
  if (!isAbsolutePattern(pattern) && !pattern.split(/[/\\]/).some(mayClimb)) return undefined;
  return {
    code: 'INVALID_PARAM',
    message: `${field} "${pattern}" must be relative to "path" and must not contain "..": e.g. ${example}.`,
  };
}

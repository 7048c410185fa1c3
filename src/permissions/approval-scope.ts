/**
 * What "yes, don't ask again" covers in the REPL (issue 15): for Bash the command's prefix (`npm test` for
 * `npm test -- a.test.ts`, `git status` for `git status --short`, `rm` for `rm -rf x`), shown in the option's
 * label; for file edits the session's edits. A compound or unparseable command gets no such option: a prefix rule
 * would not cover it, and guessing would approve more than the user saw.
 */
import { splitBashCommand } from './bash-parts.js';
import { EDIT_FAMILY } from './rule.js';

export interface ApprovalScope {
  /** For the option's label: "`npm test` commands", "file edits". */
  label: string;
  /** The allow rule remembered (and, if asked, written to .mca/settings.local.json). */
  rule: string;
}

const SUBCOMMAND = /^[a-z][a-z0-9:-]*$/;

export function approvalScope(tool: string, input: unknown): ApprovalScope | undefined {
  if (EDIT_FAMILY.has(tool)) return { label: 'file edits', rule: 'Edit' };
  if (tool !== 'Bash') return undefined;
  const command = (input as { command?: unknown } | null)?.command;
  if (typeof command !== 'string') return undefined;
  const split = splitBashCommand(command);
  if (split.kind !== 'parts' || split.parts.length !== 1) return undefined;
  const [first, second] = (split.parts[0] ?? '').split(' ');
  if (!first || /[()]/.test(first)) return undefined;
  const prefix = second !== undefined && SUBCOMMAND.test(second) ? `${first} ${second}` : first;
  return { label: `\`${prefix}\` commands`, rule: `Bash(${prefix}:*)` };
}

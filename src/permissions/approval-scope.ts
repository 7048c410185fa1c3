/**
 * What "yes, don't ask again" covers in the REPL (issue 15): for Bash the command's prefix (`npm test` for
 * `npm test -- a.test.ts`, `git status` for `git status --short`, `rm` for `rm -rf x`), shown in the option's
 * label; for file edits the session's edits. A compound or unparseable command gets no such option: a prefix rule
 * would not cover it, and guessing would approve more than the user saw. Nor does a command that runs the command in
 * its arguments (`env`, `xargs`, `eval`, `sh`): its prefix rule would be a blanket allow.
 */
import { EDIT_FAMILY } from './rule.js';

export interface ApprovalScope {
  /** For the option's label: "`npm test` commands", "file edits". */
  label: string;
  /** The allow rule remembered (and, if asked, written to .claude/settings.local.json). */
  rule: string;
}

const SUBCOMMAND = /^[a-z][a-z0-9:-]*$/;

/** What a "yes, for this session" answer covers for a whole tool: the session's edits for the edit family. */
export function toolScope(tool: string): ApprovalScope | undefined {
  if (EDIT_FAMILY.has(tool)) return { label: 'file edits', rule: 'Edit' };
  // An MCP tool (`mcp__server__tool`): that one tool, as Claude Code remembers it.
  if (tool.startsWith('mcp__')) return { label: `\`${tool}\``, rule: tool };
  return undefined;
}

/** The scope of one call; the shell parser loads only for a Bash command. */
export async function approvalScope(tool: string, input: unknown): Promise<ApprovalScope | undefined> {
  const whole = toolScope(tool);
  if (whole) return whole;
  if (tool === 'WebFetch') return webFetchScope(input);
  if (tool !== 'Bash') return undefined;
  const command = (input as { command?: unknown } | null)?.command;
  if (typeof command !== 'string') return undefined;
  const { analyzeBashCommand, runsOtherCommands } = await import('./bash-parts.js');
  const analysis = analyzeBashCommand(command);
  if (analysis.blocker !== undefined || analysis.parts.length !== 1) return undefined;
  const words = analysis.parts[0]?.words ?? [];
  const [first, second] = words;
  // A rule for `env:*`, `eval:*`, `bash:*` or `FOO=1:*` would allow every command; only "yes, once" is offered.
  if (first?.kind !== 'literal' || first.text === '' || /[()=\s]/.test(first.text) || runsOtherCommands(first.text)) {
    return undefined;
  }
  const prefix =
    second?.kind === 'literal' && SUBCOMMAND.test(second.text) ? `${first.text} ${second.text}` : first.text;
  return { label: `\`${prefix}\` commands`, rule: `Bash(${prefix}:*)` };
}

/** WebFetch: the call's domain (`WebFetch(domain:example.com)`). */
function webFetchScope(input: unknown): ApprovalScope | undefined {
  const url = (input as { url?: unknown } | null)?.url;
  if (typeof url !== 'string') return undefined;
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host ? { label: `fetches from ${host}`, rule: `WebFetch(domain:${host})` } : undefined;
  } catch {
    return undefined;
  }
}

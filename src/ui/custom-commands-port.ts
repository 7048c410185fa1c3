/**
 * What the REPL knows of custom slash commands (issue 15): their names for /help and Tab completion, and how to
 * turn `/name args` into the prompt of a turn. The CLI provides it (files, rules, trust stay out of the UI).
 */
import type { Approver } from '../tools/tool-context.js';

export interface CustomCommandInfo {
  name: string;
  usage: string;
  description: string;
}

export interface CustomCommandsPort {
  list: readonly CustomCommandInfo[];
  /** `/name args` when `name` is a custom command. */
  match(text: string): { name: string; args: string } | undefined;
  /** The prompt the command expands to; its `!` lines ask through `ask` when no rule decides. */
  expand(name: string, args: string, ask: Approver, signal: AbortSignal): Promise<string>;
}

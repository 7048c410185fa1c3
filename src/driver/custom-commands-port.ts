/**
 * What the session driver knows of custom slash commands (issue 15): their names for /help and Tab completion, and
 * how to turn `/name args` into the prompt of a turn. The CLI provides it (files, rules, trust stay out of here).
 */
import { resolveModelName } from '../config/model-aliases.js';
import type { SessionDecisionPoint } from './decision-point.js';

export interface CustomCommandInfo {
  name: string;
  usage: string;
  description: string;
}

/** How a command's `!` lines are judged: by the session's decision point (source `command`). */
export interface CommandExpansion {
  decisions: SessionDecisionPoint;
  signal: AbortSignal;
}

export interface CustomCommandsPort {
  list: readonly CustomCommandInfo[];
  /** `/name args` when `name` is a custom command; `model` is its frontmatter's model, when it names one. */
  match(text: string): { name: string; args: string; model?: string } | undefined;
  /** Calls `listener` when `list` changed (MCP prompts arrive as servers connect); returns the unsubscribe function. */
  onListChange?(listener: () => void): () => void;
  /** The prompt the command expands to; its `!` lines are judged under `how`. */
  expand(name: string, args: string, how: CommandExpansion): Promise<string>;
}

/**
 * A custom command's `model:` frontmatter, applied as the front asked (SessionDriverOptions.applyCommandModel):
 * `true` sets the conversation's model; `'turn'` sets it and answers what puts the user's model back once the
 * command's turn is over (unless `/model` changed it meanwhile). Undefined: nothing to restore.
 */
export function applyCommandModel(
  model: string | undefined,
  apply: boolean | 'turn' | undefined,
  conversation: { readonly model: string; setModel(name: string): void },
): (() => void) | undefined {
  if (!model || !apply) return undefined;
  const previous = conversation.model;
  const commandModel = resolveModelName(model);
  conversation.setModel(commandModel);
  if (apply !== 'turn') return undefined;
  return () => {
    if (conversation.model === commandModel && previous !== commandModel) conversation.setModel(previous);
  };
}

import type { DefinitionScope } from './definition-files.js';

/**
 * The modes a definition may give. `plan` narrows what the subagent may do; the others are the session's own
 * (a definition never widens what the session's decision point allows: see subagent-decide.ts).
 */
export type SubagentMode = 'default' | 'plan';

export interface AgentDefinition {
  name: string;
  description: string;
  /** The system prompt (the file's body). */
  prompt: string;
  /** The allow list; undefined: every tool of the session except Agent. */
  tools: string[] | undefined;
  disallowedTools: string[];
  /** `inherit` (the session's model) or a model name. */
  model: string;
  permissionMode: SubagentMode;
  /** Steps the subagent may take; undefined: the session's step limit. */
  maxTurns: number | undefined;
  /** Skills whose instructions are put into the subagent's first message. */
  skills: string[];
  /** `worktree`: the subagent works in a git worktree of its own (subagent-worktree.ts). */
  isolation?: 'worktree';
  scope: DefinitionScope;
  path: string | undefined;
}

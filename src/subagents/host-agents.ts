/**
 * Subagents an Agent SDK host defines in its `initialize` request (`agents`, the `--agents` shape): added to the
 * session's definitions (over a file's of the same name, as `--agents` is), and the Agent tool's description is
 * renewed so the model sees them. A definition that cannot be used is one problem line; at most MAX_HOST_AGENTS
 * are taken.
 */
import type { ToolRegistry } from '../tools/registry/registry.js';
import type { AgentDefinition } from './agent-definition.js';
import { agentsFromObject } from './agent-definitions.js';
import { descriptionOf } from './agent-tool.js';
import { ProblemList } from './definition-files.js';
import type { Extensions } from './install.js';
import { AGENT_TOOL } from './subagent-tools.js';

export const MAX_HOST_AGENTS = 100;

/** Adds the host's definitions; returns one line per problem. */
export function addHostAgents(registry: ToolRegistry, extensions: Extensions, raw: unknown): string[] {
  const problems = new ProblemList();
  let definitions = agentsFromObject(raw, "the SDK host's agents", problems);
  if (definitions.length > MAX_HOST_AGENTS) {
    problems.add(`the SDK host defined ${definitions.length} agents; only the first ${MAX_HOST_AGENTS} are used`);
    definitions = definitions.slice(0, MAX_HOST_AGENTS);
  }
  if (definitions.length === 0) return problems.list();
  // The runtime built this map; the Agent tool reads it on every call, so new names are found at once.
  const agents = extensions.agents as Map<string, AgentDefinition>;
  for (const definition of definitions) agents.set(definition.name, definition);
  const tool = registry.get(AGENT_TOOL);
  if (tool) {
    registry.unregister(AGENT_TOOL);
    registry.register({ ...tool, description: { text: descriptionOf(agents) } });
  }
  return problems.list();
}

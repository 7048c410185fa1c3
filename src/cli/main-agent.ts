/**
 * `--agent <name>` (Claude Code's): the main conversation runs as one subagent definition (.claude/agents/*.md,
 * `~/.claude/agents/`, `--agents`): its body is the system prompt's own part (mca's tool and safety parts stay, as
 * with --system-prompt, which wins when both are given), its `tools` are the only tools offered and its
 * `disallowedTools` are taken away, and a `model` other than `inherit` is the session's model.
 */
import type { Runtime } from '../runtime/create-runtime.js';
import { STRUCTURED_OUTPUT_TOOL } from '../tools/planning/structured-output.js';
import { CliError } from './exit-codes.js';

export function applyMainAgent(
  runtime: Runtime,
  name: string,
  flags: { systemPrompt: string | undefined; appendSystemPrompt: string | undefined },
): void {
  const definition = runtime.extensions.agents.get(name);
  if (!definition) {
    const known = [...runtime.extensions.agents.keys()].join(', ') || 'none';
    throw new CliError(`--agent: no agent named "${name}" (agents: ${known})`);
  }
  runtime.sessions.customizeSystemPrompt({
    replace: flags.systemPrompt ?? definition.prompt,
    append: flags.appendSystemPrompt,
  });
  const allowed = definition.tools === undefined ? undefined : new Set([...definition.tools, STRUCTURED_OUTPUT_TOOL]);
  const denied = new Set(definition.disallowedTools);
  for (const tool of runtime.registry.names()) {
    if ((allowed && !allowed.has(tool)) || denied.has(tool)) runtime.registry.unregister(tool);
  }
  if (definition.model !== 'inherit') runtime.sessions.settings.model = definition.model;
}

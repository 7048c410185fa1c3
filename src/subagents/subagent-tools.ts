/**
 * A subagent's tools and how its calls are judged. Its list is the definition's `tools` allow list (every tool
 * of the session when absent) minus `disallowedTools`; the Agent tool itself only when the allow list names it
 * (`Agent` or its older name `Task`), and never ExitPlanMode (a subagent has no plan of the user's to present).
 * Every call it makes passes the session's decision point with source `subagent` and a title naming the
 * subagent, so a question reaches the person (or the -p rules, or a host) labelled; `plan` in the definition
 * narrows it further. The rules' path screen is the session's too.
 */
import type { DecideFn, ToolCall } from '../tools/registry/define-tool.js';
import { EXIT_PLAN_MODE } from '../tools/planning/exit-plan-mode.js';
import { WEB_SEARCH } from '../tools/web/web-search.js';
import { ToolRegistry, type RunContext } from '../tools/registry/registry.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import type { CallGate } from '../tools/registry/tool-context.js';
import type { AgentDefinition } from './agent-definition.js';

export const AGENT_TOOL = 'Agent';

/**
 * What a subagent's WebSearch call is answered. The search is a server tool offered on the main session's requests
 * once its gate is permitted; a subagent's requests never carry it, so the call gets this one line instead of
 * "Unknown tool".
 */
export const SUBAGENT_WEB_SEARCH =
  'WebSearch is available to the main session only: a subagent cannot search the web. Say in your answer what ' +
  'should be searched, and the main session can search it.';
/** The Agent tool's older name, accepted in tool lists and as a tool name. */
export const AGENT_TOOL_ALIAS = 'Task';

/**
 * The registered name an entry of a `tools` list means: `Agent(…)`/`Task(…)` name the Agent tool, and an alias
 * (`Task`) its tool, as the session's registry resolves it; an entry no tool has stays as written.
 */
function toolNameOf(entry: string, session: ToolRegistry): string {
  const name = entry.replace(/\(.*\)$/, '').trim();
  return session.canonicalName(name) ?? name;
}

/** The tool names a definition gives its subagent, out of the session's registry. */
export function subagentToolNames(definition: AgentDefinition, session: ToolRegistry): string[] {
  const denied = new Set(definition.disallowedTools.map((entry) => toolNameOf(entry, session)));
  const allowed =
    definition.tools === undefined ? undefined : new Set(definition.tools.map((entry) => toolNameOf(entry, session)));
  return session.names().filter((name) => {
    // WebSearch is the main session's gate to the provider's search, which a subagent's requests never carry.
    if (name === EXIT_PLAN_MODE || name === WEB_SEARCH || denied.has(name)) return false;
    if (allowed === undefined) return name !== AGENT_TOOL;
    return allowed.has(name);
  });
}

/** The denial a `plan` subagent gets for a call that would change something. */
function planDenied(title: string, agent: string): { behavior: 'deny'; message: string } {
  return {
    behavior: 'deny',
    message: `subagent ${agent} runs in plan mode: only read-only tools run, so ${title} did not`,
  };
}

/** Subagents may start subagents (when their `tools` name Agent) this many levels deep, no deeper. */
export const MAX_SUBAGENT_DEPTH = 3;

/**
 * The session's gate as a subagent's calls meet it: one level deeper, each call labelled `subagent` (its title
 * names the subagent), a `plan` subagent's changes refused; the rest (hooks, rules, the person) is the session's.
 */
export function subagentGate(definition: AgentDefinition, session: CallGate): CallGate {
  const label = ` [subagent ${definition.name}]`;
  const decide: DecideFn = async (call, request) => {
    if (definition.permissionMode === 'plan' && request !== undefined && request.kind !== 'read') {
      return planDenied(request.title, definition.name);
    }
    const labelled: ToolCall = { ...call, source: 'subagent' };
    return await session.decide(
      labelled,
      request === undefined ? undefined : { ...request, title: `${request.title}${label}` },
    );
  };
  return { ...session, decide, depth: (session.depth ?? 0) + 1 };
}

/**
 * The registry a subagent's loop calls: the session's tool definitions it may use, each call marked as the
 * subagent's (the nested session's gate, subagentGate, judges it).
 */
export class SubagentRegistry extends ToolRegistry {
  override run(call: ToolCall, ctx: RunContext): Promise<ToolEnvelope> {
    return super.run({ ...call, source: 'subagent' }, ctx);
  }
}

/** The registry for one subagent run, holding the session's definitions of the tools it may use. */
export function subagentRegistry(
  definition: AgentDefinition,
  session: ToolRegistry,
  secrets: readonly string[],
): SubagentRegistry {
  const registry = new SubagentRegistry({ secrets });
  registry.markUnavailable(WEB_SEARCH, SUBAGENT_WEB_SEARCH);
  for (const name of subagentToolNames(definition, session)) {
    const tool = session.get(name);
    if (tool) registry.register(tool);
  }
  return registry;
}

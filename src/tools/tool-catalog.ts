/**
 * Every tool this process knows, by name, for the parts that meet a tool only as a name in a stored result: the
 * context engine (compress, shrink), the facts ledger and the transcript (display). The built-in tools are always
 * known; a registry adds each tool it registers (an MCP tool, a JSON Schema tool). A tool removed from a registry
 * stays known here, because history still holds its results. A name unknown here gets the generic behaviour.
 * Same-named tools of two registries share one entry (the newest): names are global in mca (built-ins, or
 * `mcp__<server>__<tool>`), and only how results are shown depends on it, never what a session may call.
 */
import { builtinTools } from './builtin-tools.js';
import type { ToolDefinition, ToolMembers } from './define-tool.js';

const registered = new Map<string, ToolMembers>();
let builtinMembers: Map<string, ToolMembers> | undefined;

function builtins(): Map<string, ToolMembers> {
  builtinMembers ??= new Map(builtinTools().map((tool) => [tool.name, tool]));
  return builtinMembers;
}

export function rememberTool(tool: ToolDefinition): void {
  registered.set(tool.name, tool);
}

/** The members of the tool called `name`, or undefined for a tool this process never met. */
export function toolNamed(name: string): ToolMembers | undefined {
  return registered.get(name) ?? builtins().get(name);
}

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
/** A tool's other names (ToolDefinition.aliases) → its name. */
const aliasOf = new Map<string, string>();
/** A tool's name → its other names. */
const aliasesOf = new Map<string, readonly string[]>();
let builtinMembers: Map<string, ToolMembers> | undefined;

function builtins(): Map<string, ToolMembers> {
  builtinMembers ??= new Map(builtinTools().map((tool) => [tool.name, tool]));
  return builtinMembers;
}

export function rememberTool(tool: ToolDefinition): void {
  registered.set(tool.name, tool);
  const aliases = tool.aliases ?? [];
  if (aliases.length > 0) aliasesOf.set(tool.name, aliases);
  for (const alias of aliases) aliasOf.set(alias, tool.name);
}

/** The name a tool is registered under, for `name` or one of its aliases (a name no tool has: itself). */
export function canonicalToolName(name: string): string {
  return registered.has(name) ? name : (aliasOf.get(name) ?? name);
}

/** Every name a call to the tool `name` may use: its own first, then its aliases (hook matchers test them all). */
export function toolNamesOf(name: string): readonly string[] {
  const canonical = canonicalToolName(name);
  return [canonical, ...(aliasesOf.get(canonical) ?? [])];
}

/** The members of the tool called `name` (or by one of its aliases), or undefined for a tool this process never met. */
export function toolNamed(name: string): ToolMembers | undefined {
  const canonical = canonicalToolName(name);
  return registered.get(canonical) ?? builtins().get(canonical);
}

/**
 * The names MCP tools get: `mcp__<server>__<tool>`, as in Claude Code. A server chooses its tool names, so they are
 * untrusted: anything outside `[A-Za-z0-9_-]` becomes `_` (control characters, spaces, escape sequences), the whole
 * name is cut to 64 characters (the providers' limit) and a name already taken (a second tool that sanitises to the
 * same text, or a built-in's) gets a numeric suffix. Built-in tools can never be shadowed: every MCP name starts
 * with `mcp__`.
 */
export const MCP_PREFIX = 'mcp__';
export const MAX_TOOL_NAME = 64;

export function sanitizeNamePart(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean === '' ? '_' : clean;
}

/**
 * The server part of a tool name: sanitised, with no `__` inside and no `_` at its end, so the first `__` after
 * `mcp__` always ends the server's name. A rule `mcp__github` then covers the tools of `github` and never those of
 * a server named `github__docs` (whose tools are `mcp__github_docs__…`) or `github_`.
 */
export function sanitizeServerPart(server: string): string {
  return sanitizeNamePart(server).replace(/__+/g, '_').replace(/_$/, '-');
}

/** The model-facing name of `tool` on `server`, unique among `taken` (which it is not added to). */
export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const base = `${MCP_PREFIX}${sanitizeServerPart(server)}__${sanitizeNamePart(tool)}`;
  const first = base.slice(0, MAX_TOOL_NAME);
  if (!taken.has(first)) return first;
  for (let n = 2; ; n += 1) {
    const suffix = `_${n}`;
    const candidate = base.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The prefix every tool of `server` shares (`mcp__github__`), for removing them together. */
export function serverToolPrefix(server: string): string {
  return `${MCP_PREFIX}${sanitizeServerPart(server)}__`;
}

/**
 * One permission rule in Claude Code's syntax: a tool name alone (`Bash`, `Edit`) or a tool name with a
 * specifier (`Bash(npm test:*)`, `Bash(git status)`, `Read(./.env)`, `Edit(src/**)`). A rule for `Edit` covers
 * every tool that changes files, a rule for `Read` every tool that reads them, as in Claude Code.
 */
export type RuleBehavior = 'allow' | 'ask' | 'deny';

export interface PermissionRule {
  behavior: RuleBehavior;
  /** Exactly as written, for messages: `Bash(npm test:*)`. */
  text: string;
  tool: string;
  specifier: string | undefined;
  /** Where it came from: a settings file path or a flag name. */
  source: string;
}

export const EDIT_FAMILY: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit']);
export const READ_FAMILY: ReadonlySet<string> = new Set(['Read', 'Grep', 'Glob', 'LS']);

/** A tool name (MCP tools' may hold `-`: `mcp__my-server__get-issue`), an MCP server's `mcp__server__*`, then an optional `(specifier)`. */
const RULE_SHAPE = /^([A-Za-z][A-Za-z0-9_-]*(?:__\*)?)(?:\((.*)\))?$/s;

const MCP_PREFIX = 'mcp__';

export type ParsedRule = { ok: true; rule: PermissionRule } | { ok: false; message: string };

export function parseRule(text: unknown, behavior: RuleBehavior, source: string): ParsedRule {
  if (typeof text !== 'string') return { ok: false, message: `a ${behavior} rule in ${source} is not a string` };
  const trimmed = text.trim();
  const match = RULE_SHAPE.exec(trimmed);
  if (!match?.[1]) {
    return {
      ok: false,
      message: `ignored ${behavior} rule ${JSON.stringify(text)} in ${source}: expected Tool or Tool(specifier)`,
    };
  }
  const specifier = match[2]?.trim();
  if (specifier !== undefined && specifier !== '' && specifier !== '*') {
    return { ok: true, rule: { behavior, text: trimmed, tool: match[1], specifier, source } };
  }
  // `Bash()` and `Bash(*)` mean the whole tool, as in Claude Code.
  return { ok: true, rule: { behavior, text: trimmed, tool: match[1], specifier: undefined, source } };
}

/** Whether a rule written for `ruleTool` speaks about calls of `tool`. */
export function ruleCoversTool(ruleTool: string, tool: string): boolean {
  if (ruleTool === tool) return true;
  if (ruleTool.startsWith(MCP_PREFIX)) return mcpRuleCovers(ruleTool, tool);
  // `Task` is the Agent tool's older name: rules written for it speak about Agent calls.
  if (ruleTool === 'Task') return tool === 'Agent';
  if (ruleTool === 'Edit') return EDIT_FAMILY.has(tool);
  if (ruleTool === 'Read') return READ_FAMILY.has(tool);
  return false;
}

/**
 * Splits the value of `--allowedTools` / `--disallowedTools`: several rules separated by commas or spaces,
 * except inside parentheses (`Bash(git diff:*),Edit` is two rules; `Bash(npm run build)` is one).
 */
export function splitRuleList(values: readonly string[]): string[] {
  const rules: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = '';
    for (const char of value) {
      if (char === '(') depth += 1;
      if (char === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === ',' || /\s/.test(char))) {
        if (current.trim() !== '') rules.push(current.trim());
        current = '';
        continue;
      }
      current += char;
    }
    if (current.trim() !== '') rules.push(current.trim());
  }
  return rules;
}

/**
 * MCP rules as in Claude Code: `mcp__server` and `mcp__server__*` cover every tool of that server, `mcp__server__tool`
 * only that tool. A server name that itself holds `__` cannot be told apart from a tool, so only the exact name and
 * the prefix forms are used.
 */
function mcpRuleCovers(ruleTool: string, tool: string): boolean {
  if (!tool.startsWith(MCP_PREFIX)) return false;
  const serverPrefix = ruleTool.endsWith('__*') ? ruleTool.slice(0, -1) : `${ruleTool}__`;
  const server = ruleTool.endsWith('__*') ? ruleTool.slice(MCP_PREFIX.length, -3) : ruleTool.slice(MCP_PREFIX.length);
  if (server === '' || (!ruleTool.endsWith('__*') && server.includes('__'))) return false;
  return tool.startsWith(serverPrefix) && tool.length > serverPrefix.length;
}

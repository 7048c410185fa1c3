/** Types shared by the MCP manager and what it builds: its bounds and the registry it feeds. */
import type { ToolDefinition } from '../tools/registry/define-tool.js';

/** The registry as the manager needs it (ToolRegistry fits). */
export interface ToolSink {
  register(tool: ToolDefinition): unknown;
  unregister(name: string): boolean;
  names(): string[];
}

/** The bounds of one runtime's MCP servers, from Claude Code's variables (mcp-servers.ts reads them). */
export interface McpLimits {
  /** MCP_TIMEOUT: connecting and listing tools. */
  connectTimeoutMs: number;
  /** MCP_TOOL_TIMEOUT: one call (a server's own `timeout` wins). */
  toolTimeoutMs: number;
  /** MAX_MCP_OUTPUT_TOKENS. */
  maxOutputTokens: number;
}

/**
 * `get_context_usage` in Claude Code's shape: the context report's parts as categories, the memory files, the MCP
 * tools with their definitions' estimated tokens and server, and the subagents defined beyond the built-in ones.
 * Tokens are estimated as characters / 4, as the memory files' are.
 */
import type { McpManager } from '../mcp/mcp-manager.js';
import type { SdkMcpServers } from '../mcp/sdk-servers.js';
import type { SessionDriver } from '../driver/session-driver.js';
import type { Runtime } from '../runtime/create-runtime.js';
import type { ToolDefinition } from '../tools/registry/define-tool.js';
import type { CcAgentInfo } from '../claude-code/types.js';

interface UsageContext {
  runtime: Runtime;
  driver: SessionDriver;
}

/** The subagents in Claude Code's AgentInfo shape (initialize's `agents`). */
export function agentInfo(runtime: Runtime): CcAgentInfo[] {
  return [...runtime.extensions.agents.values()].map((agent) => ({
    name: agent.name,
    description: agent.description,
    ...(agent.model === 'inherit' ? {} : { model: agent.model }),
  }));
}

function estimate(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The definition's name and description (its schema is not counted: mca has no cheap way to render it here). */
function definitionTokens(tool: ToolDefinition): number {
  const description = 'text' in tool.description ? tool.description.text : '';
  return estimate(`${tool.name}${description}`);
}

/** Each registered MCP tool with its server (configured or the host's) and its definition's tokens. */
function mcpTools(
  runtime: Runtime,
  servers: ReadonlyArray<{ name: string; tools: readonly string[] }>,
  sdk: SdkMcpServers,
): Array<{ name: string; serverName: string; tokens: number }> {
  const serverOf = new Map<string, string>();
  for (const server of servers) for (const tool of server.tools) serverOf.set(tool, server.name);
  for (const server of sdk.list()) for (const tool of server.tools) serverOf.set(tool.modelName, server.name);
  return runtime.registry.list().flatMap((tool) => {
    const serverName = serverOf.get(tool.name);
    return serverName === undefined ? [] : [{ name: tool.name, serverName, tokens: definitionTokens(tool) }];
  });
}

/** `added`: the servers the host added with `mcp_set_servers` (their tools count as MCP tools too). */
export function contextUsage(
  context: UsageContext,
  sdk: SdkMcpServers,
  added: ReturnType<McpManager['list']> = [],
): Record<string, unknown> {
  const report = context.driver.controller.contextReport();
  const categories = report.parts.map((part) => ({
    name: part.label,
    tokens: part.tokens,
    color: 'gray',
    kind: 'used' as const,
  }));
  const totalTokens = report.parts.reduce((sum, part) => sum + part.tokens, 0);
  return {
    categories,
    totalTokens,
    maxTokens: report.contextWindow,
    rawMaxTokens: report.contextWindow,
    percentage: report.contextWindow > 0 ? (totalTokens / report.contextWindow) * 100 : 0,
    gridRows: [],
    model: context.driver.model,
    memoryFiles: context.driver.controller
      .memoryFiles()
      .map((file) => ({ path: file.path, type: file.level, tokens: Math.ceil(file.chars / 4) })),
    mcpTools: mcpTools(context.runtime, [...(context.runtime.mcp?.list() ?? []), ...added], sdk),
    agents: [...context.runtime.extensions.agents.values()]
      .filter((agent) => agent.scope !== 'built-in')
      .map((agent) => ({
        agentType: agent.name,
        source:
          agent.scope === 'project' ? 'projectSettings' : agent.scope === 'user' ? 'userSettings' : 'flagSettings',
        ...(agent.path === undefined ? {} : { path: agent.path }),
        tokens: estimate(`${agent.name}${agent.description}`),
      })),
    isAutoCompactEnabled: true,
    apiUsage: null,
  };
}

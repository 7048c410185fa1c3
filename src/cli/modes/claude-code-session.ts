/** The facts Claude Code's output formats report about a session (src/sinks/claude-code-sink.ts), from the runtime. */
import type { SessionDriver } from '../../driver/session-driver.js';
import type { ClaudeCodeSessionInfo } from '../../sinks/claude-code-sink.js';
import type { Runtime } from '../../runtime/create-runtime.js';
import type { toClaudeCodeInput } from '../../claude-code/tool-input.js';
import { createStructuredOutputTool, STRUCTURED_OUTPUT_TOOL } from '../../tools/planning/structured-output.js';
import type { initMcpServers } from '../../claude-code/mcp.js';
import type { CliOptions } from '../cli-options.js';
import { applyMainAgent } from '../main-agent.js';
import { homedir } from 'node:os';
import { readClaudeSettings } from '../../claude-code/settings.js';

/**
 * The init line's `tools`: the registry's, and every connected MCP server's `mcp__` tools (the registry may hold
 * only ToolSearch for them when they are deferred; the model can still reach each one).
 */
function initTools(runtime: Runtime): string[] {
  const servers = runtime.mcp?.list() ?? [];
  const mcpTools = servers.flatMap((server) => (server.state === 'connected' ? server.tools : []));
  return [...new Set([...runtime.registry.names(), ...mcpTools])];
}

/**
 * The init line's `slash_commands`: the custom commands the session routes (plugins' and mca's built-in prompts among
 * them) and the skills, as Claude Code lists both. Claude Code adds its built-in commands that run headless; mca's
 * `-p` and stream-json input send a built-in command's text to the model, so none is listed.
 */
function slashCommandNames(driver: SessionDriver | undefined, skills: readonly string[]): string[] {
  const custom = (driver?.customCommands?.list ?? []).map((command) => command.name);
  return [...new Set([...custom, ...skills])];
}

/**
 * Claude Code's form of a call's input and of the MCP servers' state, which only its JSON formats (and the
 * headless mode) write: loaded for them only, so a plain text answer does not load either (issue 42).
 */
export interface ClaudeCodeForms {
  readonly toClaudeCodeInput: typeof toClaudeCodeInput;
  readonly initMcpServers: typeof initMcpServers;
}

export async function loadClaudeCodeForms(): Promise<ClaudeCodeForms> {
  const [input, mcp] = await Promise.all([
    import('../../claude-code/tool-input.js'),
    import('../../claude-code/mcp.js'),
  ]);
  return { toClaudeCodeInput: input.toClaudeCodeInput, initMcpServers: mcp.initMcpServers };
}

/** For the output formats that write neither (text, mca-json, mca-stream-json): inputs as they are, no servers. */
export const PLAIN_FORMS: ClaudeCodeForms = {
  toClaudeCodeInput: (_tool, input) => input,
  initMcpServers: () => [],
};

/** `driver` is read lazily: the sink exists before the driver that feeds it. */
export function claudeCodeSession(
  runtime: Runtime,
  options: Pick<CliOptions, 'claudeCode'>,
  version: string,
  driver: () => SessionDriver | undefined,
  forms: ClaudeCodeForms,
): ClaudeCodeSessionInfo {
  const { toClaudeCodeInput, initMcpServers } = forms;
  const controller = () => driver()?.controller ?? runtime.controller;
  // The settings' `outputStyle` as written (Claude Code's init reports the name so): read once, at the first init.
  let outputStyle: string | undefined;
  const styleOf = (): string =>
    (outputStyle ??=
      readClaudeSettings({
        projectRoot: runtime.projectRoot,
        mcaHome: runtime.config.mcaHome,
        home: homedir(),
        trusted: runtime.trusted,
      }).outputStyle?.value ?? 'default');
  return {
    sessionId: () => controller().sessionId,
    model: () => controller().model,
    init: () => ({
      cwd: runtime.projectRoot,
      sessionId: controller().sessionId,
      tools: initTools(runtime),
      mcpServers: initMcpServers(runtime.mcp),
      agents: [...runtime.extensions.agents.keys()],
      skills: [...runtime.extensions.skills.keys()],
      slashCommands: slashCommandNames(driver(), [...runtime.extensions.skills.keys()]),
      plugins: runtime.plugins.map((plugin) => ({
        name: plugin.name,
        path: plugin.dir,
        source: plugin.id,
        ...(plugin.version === undefined ? {} : { version: plugin.version }),
      })),
      outputStyle: styleOf(),
      model: controller().model,
      permissionMode: controller().permissionMode,
      apiKeyFromEnv: runtime.secrets.length > 0,
      version,
    }),
    toClaudeCodeInput: (tool, input) => toClaudeCodeInput(tool, input, runtime.projectRoot),
    limits: () => ({ contextWindow: runtime.config.contextWindow, maxOutputTokens: runtime.config.maxOutputTokens }),
    prices: runtime.config.modelPrices,
    includePartialMessages: options.claudeCode.includePartialMessages,
    subagents: (listener) => runtime.extensions.events.on(listener),
  };
}

/**
 * What Claude Code's flags change in a runtime once it is built: the host's system prompt text, and `--tools`
 * (only the tools named stay offered; `""` offers none).
 */
export function applyClaudeCodeOptions(runtime: Runtime, options: Pick<CliOptions, 'claudeCode'>): void {
  const { systemPrompt, appendSystemPrompt, tools, jsonSchema } = options.claudeCode;
  runtime.sessions.customizeSystemPrompt({ replace: systemPrompt, append: appendSystemPrompt });
  if (jsonSchema !== undefined) runtime.registry.register(createStructuredOutputTool(jsonSchema));
  if (options.claudeCode.agent !== undefined) {
    applyMainAgent(runtime, options.claudeCode.agent, { systemPrompt, appendSystemPrompt });
  }
  if (tools === undefined) return;
  const keep = new Set([...tools, ...(jsonSchema === undefined ? [] : [STRUCTURED_OUTPUT_TOOL])]);
  for (const name of runtime.registry.names()) if (!keep.has(name)) runtime.registry.unregister(name);
}

/**
 * The session driver's view of custom slash commands: the command files (loaded once, expanded under the rules and
 * trust) and the prompts of the MCP servers (`/mcp__<server>__<prompt>`, listed as servers connect). The REPL
 * loads them at start; `-p` only when its prompt starts with `/`. `list` is the one list every front shows (the
 * REPL's /help and completion, the headless and ACP command lists): file commands, then MCP prompts.
 */
import { loadCustomCommands, matchCustomCommand } from '../commands/custom-commands.js';
import type { CustomCommandInfo, CustomCommandsPort } from './custom-commands-port.js';
import type { McpManager } from '../mcp/mcp-manager.js';
import type { McpPromptCommands } from '../mcp/prompt-commands.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { mcpLimits } from '../runtime/mcp-servers.js';
import { CHARS_PER_TOKEN } from '../mcp/result-limits.js';

export async function loadSessionCommands(booted: Runtime, notices: string[]): Promise<CustomCommandsPort> {
  const commands = await loadCustomCommands(
    { projectRoot: booted.projectRoot, mcaHome: booted.config.mcaHome, plugins: booted.plugins },
    notices,
  );
  const files: CustomCommandInfo[] = [...commands.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((command) => ({
      name: command.name,
      usage: `/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ''}`,
      description: `${command.description} (${command.scope})`,
    }));
  // The MCP modules load only when a server is configured.
  const prompts = booted.mcp ? await mcpPromptCommands(booted, booted.mcp) : undefined;
  return {
    get list(): readonly CustomCommandInfo[] {
      const own = prompts?.list ?? [];
      return own.length === 0 ? files : [...files, ...own.filter((entry) => !commands.has(entry.name))];
    },
    ...(prompts ? { onListChange: (listener: () => void) => prompts.onListChange(listener) } : {}),
    match: (text) => {
      const matched = matchCustomCommand(text, commands);
      if (!matched) return prompts?.match(text);
      const { name, model } = matched.command;
      return { name, args: matched.args, ...(model ? { model } : {}) };
    },
    expand: async (name, args, how) => {
      const command = commands.get(name);
      if (!command) {
        if (prompts) return { prompt: await prompts.expand(name, args), mentionText: '' };
        throw new Error(`no custom command /${name}`);
      }
      // Expanding (argument splitting, `!` lines) needs the shell parser: loaded only for a command that is used.
      const { expandForSession } = await import('./command-shell.js');
      return await expandForSession(booted, command, args, how);
    },
  };
}

async function mcpPromptCommands(booted: Runtime, manager: McpManager): Promise<McpPromptCommands> {
  // The limits are on the start path already (mcp-servers.ts, result-limits.ts): only the prompt commands load here.
  const { McpPromptCommands: Commands } = await import('../mcp/prompt-commands.js');
  return new Commands(manager, (line) => booted.registry.notice(line), mcpLimits().maxOutputTokens * CHARS_PER_TOKEN);
}

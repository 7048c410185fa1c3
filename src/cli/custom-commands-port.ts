/**
 * The session driver's view of custom slash commands: loaded once, expanded under the rules and trust. The REPL
 * loads them at start; `-p` only when its prompt starts with `/`.
 */
import { loadCustomCommands, matchCustomCommand } from '../commands/custom-commands.js';
import type { CustomCommandsPort } from '../driver/custom-commands-port.js';
import type { Bootstrapped } from './bootstrap.js';

export async function createCustomCommandsPort(booted: Bootstrapped, notices: string[]): Promise<CustomCommandsPort> {
  const commands = await loadCustomCommands(
    { projectRoot: booted.projectRoot, mcaHome: booted.config.mcaHome },
    notices,
  );
  const list = [...commands.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((command) => ({
      name: command.name,
      usage: `/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ''}`,
      description: `${command.description} (${command.scope})`,
    }));
  return {
    list,
    match: (text) => {
      const matched = matchCustomCommand(text, commands);
      if (!matched) return undefined;
      const { name, model } = matched.command;
      return { name, args: matched.args, ...(model ? { model } : {}) };
    },
    expand: async (name, args, how) => {
      const command = commands.get(name);
      if (!command) throw new Error(`no custom command /${name}`);
      // Expanding (argument splitting, `!` lines) needs the shell parser: loaded only for a command that is used.
      const { expandForSession } = await import('./command-shell.js');
      return await expandForSession(booted, command, args, how);
    },
  };
}

/** The REPL's view of custom slash commands: loaded once at start, expanded under the rules and trust. */
import { loadCustomCommands, matchCustomCommand } from '../commands/custom-commands.js';
import type { CustomCommandsPort } from '../ui/custom-commands-port.js';
import type { Bootstrapped } from './bootstrap.js';
import { expandForSession } from './command-shell.js';

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
      return matched ? { name: matched.command.name, args: matched.args } : undefined;
    },
    expand: async (name, args, ask, signal) => {
      const command = commands.get(name);
      if (!command) throw new Error(`no custom command /${name}`);
      return await expandForSession(booted, command, args, signal, ask);
    },
  };
}

/**
 * `mca plugin …` (Claude Code's `claude plugin`): marketplaces, install, uninstall, enable, disable, list
 * (src/plugins/plugin-verbs.ts does the work; this maps it to stdout, stderr and exit codes).
 */
import { homedir } from 'node:os';
import { resolveMcaHome } from '../../config/config.js';
import { PluginError } from '../../plugins/plugin-error.js';
import { PLUGIN_USAGE, runPluginVerb } from '../../plugins/plugin-verbs.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { resolveProjectRoot } from '../bootstrap.js';
import { CliError, EXIT_OK } from '../exit-codes.js';

export async function runPluginCommand(args: readonly string[]): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
    process.stdout.write(`${PLUGIN_USAGE}\n`);
    return EXIT_OK;
  }
  let mcaHome: string;
  try {
    mcaHome = resolveMcaHome();
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const context = { mcaHome, home: homedir(), projectRoot: resolveProjectRoot(undefined), cwd: process.cwd() };
  try {
    const lines = await runPluginVerb(args, context);
    process.stdout.write(`${lines.map(neutralizeControlSequences).join('\n')}\n`);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof PluginError) throw new CliError(neutralizeControlSequences(error.message), 1);
    throw error;
  }
}

/**
 * `/plugin [verb …]` in the REPL: with no words, the plugins this session loaded and the installed ones; otherwise
 * the same verbs as `mca plugin` (what they change loads from the next session, as in Claude Code).
 */
export async function pluginCommandText(
  args: string,
  booted: { projectRoot: string; config: { mcaHome: string }; plugins: ReadonlyArray<{ id: string; dir: string }> },
): Promise<string> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const context = {
    mcaHome: booted.config.mcaHome,
    home: homedir(),
    projectRoot: booted.projectRoot,
    cwd: process.cwd(),
  };
  try {
    const lines = await runPluginVerb(words, context);
    if (words.length > 0) return lines.join('\n');
    const loaded = booted.plugins.map((plugin) => `  ${plugin.id}  (${plugin.dir})`);
    return [
      loaded.length > 0 ? 'Loaded in this session:' : 'No plugin is loaded in this session.',
      ...loaded,
      ...lines,
      'Verbs: /plugin install <plugin>@<marketplace> · enable|disable|uninstall <plugin> · marketplace add|list|remove',
    ].join('\n');
  } catch (error) {
    if (error instanceof PluginError) return error.message;
    throw error;
  }
}

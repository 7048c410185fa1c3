/** `mca` without -p: the Ink REPL. Needs a terminal; the UI modules load only here. */
import { join } from 'node:path';
import { projectSlug } from '../session/session-store.js';
import { bootstrap } from './bootstrap.js';
import { CliError, EXIT_OK, printError } from './exit-codes.js';
import { createPathCompleter } from './path-completion.js';
import { createUserShell } from './user-shell.js';
import type { CliOptions } from './program.js';

export async function runInteractive(options: CliOptions): Promise<number> {
  if (!process.stdin.isTTY) {
    throw new CliError('interactive mode needs a terminal; use mca -p "..." in scripts and pipes');
  }
  const { sessions, projectRoot, config, notices } = await bootstrap(options);
  for (const notice of notices) printError(notice);
  const { runRepl } = await import('../ui/run-repl.js');
  await runRepl({
    sessions,
    inputHistoryPath: join(config.mcaHome, 'projects', projectSlug(projectRoot), 'input-history.jsonl'),
    completePath: createPathCompleter(projectRoot),
    runShell: createUserShell(projectRoot),
    openPicker: options.pickSession,
    prices: config.modelPrices,
    ...(options.prompt ? { initialPrompt: options.prompt } : {}),
  });
  sessions.close();
  return EXIT_OK;
}

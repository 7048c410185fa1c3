/**
 * `mca doctor`: the installation checks of `/doctor`, from the shell, as Claude Code's `claude doctor` (issue 40).
 * It reads the settings files and probes programs; it opens no session and makes no model request.
 */
import { homedir } from 'node:os';
import { readClaudeSettings } from '../../claude-code/settings.js';
import { resolveMcaHome } from '../../config/config.js';
import { trustChoice } from '../../permissions/trust-store.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { resolveProjectRoot } from '../bootstrap.js';
import { doctorLines } from '../doctor-checks.js';
import { CliError, EXIT_OK } from '../exit-codes.js';

const USAGE = 'usage: mca doctor [dir]';

export function runDoctorCommand(args: readonly string[]): number {
  if (args.some((arg) => arg.startsWith('-')) || args.length > 1) throw new CliError(USAGE);
  const projectRoot = resolveProjectRoot(args[0]);
  let mcaHome: string;
  try {
    mcaHome = resolveMcaHome();
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const trusted = trustChoice(mcaHome, projectRoot) === 'trusted';
  const settings = readClaudeSettings({ projectRoot, mcaHome, home: homedir(), trusted });
  const lines = [
    `Project: ${projectRoot} (${trusted ? 'trusted' : 'not trusted: run mca trust to use its settings'})`,
    ...doctorLines({
      mcaHome,
      startupNotices: settings.notices,
      unsupported: settings.unsupported,
      apiKeyHelperFile: settings.apiKeyHelper?.file,
    }),
  ];
  process.stdout.write(`${lines.map((line) => neutralizeControlSequences(line)).join('\n')}\n`);
  return EXIT_OK;
}

/**
 * `mca trust [dir]` (and `mca trust --revoke [dir]`): records that the user trusts a project, so its settings'
 * allow rules and the commands it supplies take effect. For scripts; the REPL asks once per project itself.
 */
import { resolveMcaHome } from '../config/config.js';
import { recordTrust } from '../permissions/trust-store.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import { resolveProjectRoot } from './bootstrap.js';
import { CliError, EXIT_OK } from './exit-codes.js';

const USAGE = 'usage: mca trust [--revoke] [dir]';

export function runTrustCommand(args: readonly string[]): number {
  const revoke = args.includes('--revoke');
  const rest = args.filter((arg) => arg !== '--revoke');
  if (rest.some((arg) => arg.startsWith('-')) || rest.length > 1) throw new CliError(USAGE);
  const projectRoot = resolveProjectRoot(rest[0]);
  let mcaHome: string;
  try {
    mcaHome = resolveMcaHome();
    recordTrust(mcaHome, projectRoot, !revoke);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  // A directory name is not mca's text: its control characters are shown, never sent to the terminal raw.
  const shown = neutralizeControlSequences(projectRoot);
  process.stdout.write(
    revoke
      ? `${shown} is no longer trusted: its allow rules and commands are ignored\n`
      : `trusted ${shown}: its settings' allow rules and its commands now take effect\n`,
  );
  return EXIT_OK;
}

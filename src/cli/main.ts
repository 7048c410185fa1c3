#!/usr/bin/env node
/**
 * Entry point. Kept tiny so `mca --version` answers before anything heavy loads; the program (commander, the
 * SDK, Ink) is imported only once we know it is needed.
 */
import { readPackageVersion } from './version.js';

// `mca --help | head` closes the pipe early; that is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === '-V')) {
  process.stdout.write(`${readPackageVersion()} (mca)\n`);
} else {
  const { runCli } = await import('./program.js');
  process.exitCode = await runCli(args);
}

#!/usr/bin/env node
/**
 * Entry point. Kept tiny so `mca --version` answers before anything heavy loads; the program (commander, the
 * SDK, Ink) is imported only once we know it is needed.
 */
import * as nodeModule from 'node:module';
import { readPackageVersion } from './version.js';

// Node 22.1+ keeps the compiled bundle in an on-disk cache between runs (os.tmpdir()/node-compile-cache, or
// NODE_COMPILE_CACHE); older Node has no such function. A cache that cannot be used only costs the saving.
const { enableCompileCache } = nodeModule as { enableCompileCache?: () => unknown };
try {
  enableCompileCache?.();
} catch {
  // Start without the cache.
}

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
  process.exitCode = await runCli(args, readPackageVersion());
}

#!/usr/bin/env node
/**
 * The program's entry (the `mca` command starts in launcher.ts, which imports this for anything but --version).
 * Kept tiny so `mca --version` answers before anything heavy loads; the program (the command line, the providers, Ink) is
 * imported only once we know it is needed.
 */
import * as nodeModule from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isVersionRequest, readPackageVersion } from './version.js';

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
const cliDirectory = dirname(fileURLToPath(import.meta.url));
if (isVersionRequest(args)) {
  process.stdout.write(`${readPackageVersion(cliDirectory)} (mca)\n`);
} else {
  const { runCli } = await import('./program.js');
  process.exitCode = await runCli(args, readPackageVersion(cliDirectory));
}

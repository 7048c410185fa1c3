import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `mca --version` (or -v, -V) and nothing else: answered before the program loads. */
export function isVersionRequest(args: readonly string[]): boolean {
  return args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === '-V');
}

/** The version from the package.json shipped beside dist/ (two levels above dist/cli/, the directory given). */
export function readPackageVersion(cliDirectory: string): string {
  const manifest = JSON.parse(readFileSync(join(cliDirectory, '..', '..', 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}

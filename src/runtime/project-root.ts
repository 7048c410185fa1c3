import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { RuntimeError } from './runtime-error.js';

/** The real path of the project directory `cwd` (relative to the process's own). Throws RuntimeError. */
export function projectRootOf(cwd: string | undefined): string {
  const wanted = resolve(cwd ?? process.cwd());
  try {
    if (statSync(wanted).isDirectory()) return realpathSync(wanted);
  } catch {
    throw new RuntimeError('PROJECT_NOT_FOUND', `project directory ${wanted} does not exist`, wanted);
  }
  throw new RuntimeError('PROJECT_NOT_DIRECTORY', `${wanted} is not a directory`, wanted);
}

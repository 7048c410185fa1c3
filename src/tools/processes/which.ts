import { sessionEnvironment } from '../../config/child-environment.js';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const cache = new Map<string, string | undefined>();

/** Absolute path of an executable found on PATH, or undefined. Cached per (name, PATH). */
export function findExecutable(name: string, pathEnv = sessionEnvironment().PATH ?? ''): string | undefined {
  const key = `${name}\u0000${pathEnv}`;
  if (cache.has(key)) return cache.get(key);
  let found: string | undefined;
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, process.platform === 'win32' ? `${name}.exe` : name);
    try {
      accessSync(candidate, constants.X_OK);
      found = candidate;
      break;
    } catch {
      // not in this directory
    }
  }
  cache.set(key, found);
  return found;
}

import { readFileSync } from 'node:fs';

/** The version from the package.json shipped beside dist/ (one level above dist/cli/). */
export function readPackageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}

/**
 * What a run of the built binary loaded: the dist chunks a loader hook recorded (test/helpers/record-chunks.mjs,
 * through NODE_OPTIONS and MCA_RECORD_CHUNKS), their size on disk, and the source and node_modules files inside
 * them from esbuild's metafile (build/meta.json, written by scripts/build.mjs). Shared by the start-path tests of
 * `mca -p` (test/cli/start-path-modules.test.ts) and of the REPL (test/e2e/repl-start-path.test.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The preload that records the loaded modules (its variable: MCA_RECORD_CHUNKS, the file it appends to). */
export const RECORD_PRELOAD = fileURLToPath(new URL('./record-chunks.mjs', import.meta.url));

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

export function readMeta(): Metafile {
  try {
    return JSON.parse(readFileSync(join(REPO, 'build', 'meta.json'), 'utf8')) as Metafile;
  } catch (error) {
    throw new Error(`build/meta.json is missing or unreadable: run npm run build (${(error as Error).message})`);
  }
}

/** The npm package a bundled input file belongs to (`@scope/name` or `name`), or undefined for our sources. */
export function packageOf(input: string): string | undefined {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

export interface LoadedChunks {
  /** dist chunks loaded, relative to the repository (`dist/cli/main.js`). */
  chunks: string[];
  /** Their size on disk, in bytes. */
  bytes: number;
  /** Every bundled input (source or node_modules file) of those chunks. */
  inputs: Set<string>;
  packages: Set<string>;
}

/** The chunks listed in `record` (the recorder's file), with their bytes, inputs and packages. */
export function loadedChunks(record: string, meta: Metafile = readMeta()): LoadedChunks {
  const chunks = [
    ...new Set(
      readFileSync(record, 'utf8')
        .split('\n')
        .map((line) => line.slice(line.indexOf(' ') + 1))
        .filter((url) => url.startsWith('file://'))
        .map((url) => relative(REPO, fileURLToPath(url)))
        .filter((path) => path.startsWith('dist/cli/')),
    ),
  ];
  const inputs = new Set<string>();
  for (const chunk of chunks) {
    const output = meta.outputs[chunk];
    if (!output) throw new Error(`${chunk} is not in build/meta.json: the build and the metafile disagree`);
    for (const input of Object.keys(output.inputs)) inputs.add(input);
  }
  const packages = new Set([...inputs].flatMap((input) => packageOf(input) ?? []));
  const bytes = chunks.reduce((sum, chunk) => sum + statSync(join(REPO, chunk)).size, 0);
  return { chunks, bytes, inputs, packages };
}

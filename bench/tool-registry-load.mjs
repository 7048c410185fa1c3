// What the tools cost the start path (issue 17): bundles src/tools/registry/registry.ts as the binary bundles it (split at
// dynamic imports, tool JSON Schemas computed at build time), then, in fresh processes, times importing the
// registry chunk, building the `tools` array and the text-protocol tool prompts, and the first and second Read
// (the first one loads the validator and the schemas). Prints medians and the bytes the registry loads statically.
//   node bench/tool-registry-load.mjs [runs=20]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { toolJsonSchemasPlugin } from '../scripts/tool-json-schemas.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 20);
const work = mkdtempSync(join(tmpdir(), 'mca-bench-tools-'));
try {
  symlinkSync(join(root, 'prompts'), join(work, 'prompts'));
  mkdirSync(join(work, 'project'));
  writeFileSync(join(work, 'project', 'a.txt'), 'one\ntwo\n');
  const entry = join(work, 'entry.ts');
  writeFileSync(
    entry,
    `const t0 = performance.now();
const { createDefaultRegistry } = await import(${JSON.stringify(join(root, 'src/tools/registry/registry.ts'))});
const { FileStateRecord } = await import(${JSON.stringify(join(root, 'src/tools/files/file-state.ts'))});
const t1 = performance.now();
const registry = createDefaultRegistry();
registry.toolSpecs();
registry.prompts();
const t2 = performance.now();
const ctx = { projectRoot: ${JSON.stringify(join(work, 'project'))}, signal: new AbortController().signal,
  approve: async () => ({ approved: false }), fileState: new FileStateRecord() };
await registry.run('Read', { path: 'a.txt' }, ctx);
const t3 = performance.now();
await registry.run('Read', { path: 'a.txt' }, ctx);
const t4 = performance.now();
process.stdout.write(JSON.stringify({ importMs: t1 - t0, toolsMs: t2 - t1, firstReadMs: t3 - t2, secondReadMs: t4 - t3 }));
`,
  );
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { entry },
    outdir: join(work, 'cli'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    plugins: [toolJsonSchemasPlugin()],
    banner: {
      js: "import { createRequire as __mcaCreateRequire } from 'node:module'; const require = __mcaCreateRequire(import.meta.url);",
    },
  });
  const seen = new Set();
  const visit = (output) => {
    if (seen.has(output)) return;
    seen.add(output);
    for (const imported of metafile.outputs[output].imports)
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  // The registry's chunk and everything it imports statically: what loading the tools loads.
  const registryPath = join(root, 'src/tools/registry/registry.ts');
  const registryInput = Object.keys(metafile.inputs).find((input) => join(root, input) === registryPath);
  visit(Object.keys(metafile.outputs).find((output) => registryInput in metafile.outputs[output].inputs));
  const staticBytes = [...seen].reduce((sum, output) => sum + metafile.outputs[output].bytes, 0);

  const samples = Array.from({ length: runs }, () =>
    JSON.parse(execFileSync(process.execPath, [join(work, 'cli', 'entry.js')], { encoding: 'utf8' })),
  );
  const median = (key) => {
    const sorted = samples.map((sample) => sample[key]).sort((a, b) => a - b);
    return Number(sorted[Math.floor(sorted.length / 2)].toFixed(2));
  };
  const result = Object.fromEntries(
    ['importMs', 'toolsMs', 'firstReadMs', 'secondReadMs'].map((key) => [key, median(key)]),
  );
  console.log(JSON.stringify({ runs, ...result, registryStaticKB: Math.round(staticBytes / 1024) }));
} finally {
  rmSync(work, { recursive: true, force: true });
}

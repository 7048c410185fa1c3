// Builds the `mca` binary: one esbuild bundle of src/ and its dependencies, split at the dynamic imports so
// `mca --version` loads almost nothing and `-p` never loads Ink or React. A bundle starts about twice as fast as
// Node resolving hundreds of separate ES modules (see BENCHMARKS.md, start-up). Type checking is `npm run typecheck`.
//
// Outputs:
// - dist/cli/*.js: the published binary. No source maps by default (they were two thirds of the package);
//   `MCA_SOURCEMAP=1 npm run build` adds them (with their sources) for debugging a stack trace.
// - build/meta.json: esbuild's metafile (git-ignored, never published): which source and node_modules files each
//   dist chunk holds. test/cli/start-path-modules.test.ts reads it to check what each command line loads.
//
// The code is minified in syntax and whitespace but keeps its identifiers, so a stack trace still names the
// functions: measured, Node imports the chunks of `mca -p` about 8% faster (62 vs 67 ms median) and dist/ is a
// third smaller (4.8 vs 7.1 MB).
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
// The tools' JSON Schemas are computed at build time, so the binary loads zod only to validate a tool call.
import { toolJsonSchemasPlugin } from './tool-json-schemas.mjs';
// The code of a plain `-p` answer in one chunk, not scattered over dozens by the lazy features that share it.
import { coreChunkPlugin } from './core-chunk.mjs';

const outdir = new URL('../dist/', import.meta.url).pathname;
const metaFile = new URL('../build/meta.json', import.meta.url);
const withSourceMaps = process.env.MCA_SOURCEMAP === '1';
rmSync(outdir, { recursive: true, force: true });

/** What both outputs share: bundled for Node 20, minified but for identifiers, with a metafile. */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: withSourceMaps,
  minifySyntax: true,
  minifyWhitespace: true,
  metafile: true,
  logLevel: 'warning',
};

const mainOptions = {
  ...common,
  // The walking tools' worker thread (src/tools/walking/walk-runner.ts loads it from beside its own chunk).
  entryPoints: { 'cli/main': 'src/cli/main.ts', 'cli/walk-worker': 'src/tools/walking/walk-worker.ts' },
  outdir,
  splitting: true,
  // Every chunk lives beside main.js, so paths relative to import.meta.url (package.json, prompts/) hold.
  chunkNames: 'cli/[name]-[hash]',
  format: 'esm',
  // Ink imports it only when React DevTools are asked for; it is not a dependency.
  external: ['react-devtools-core'],
  // React, its reconciler and scheduler pick their production build by this, as every shipped Ink program does:
  // unset, the REPL ran React's development build (its checks, and 0.8 MB more JavaScript to load at start).
  define: { 'process.env.NODE_ENV': '"production"' },
  // Bundled CommonJS dependencies call require(); ES module output has none of its own.
  banner: {
    js: "import { createRequire as __mcaCreateRequire } from 'node:module'; const require = __mcaCreateRequire(import.meta.url);",
  },
  plugins: [toolJsonSchemasPlugin()],
};
const result = await build({
  ...mainOptions,
  plugins: [...mainOptions.plugins, coreChunkPlugin(mainOptions)],
});

// The `mca` command: a CommonJS launcher, so `mca --version` does not start Node's ES module loader; it imports
// main.js (left external, kept as a real import()) for everything else.
const launcher = await build({
  ...common,
  entryPoints: ['src/cli/launcher.ts'],
  outfile: `${outdir}cli/mca.cjs`,
  format: 'cjs',
  external: ['./main.js'],
});

mkdirSync(new URL('.', metaFile), { recursive: true });
const metafile = {
  inputs: { ...result.metafile.inputs, ...launcher.metafile.inputs },
  outputs: { ...result.metafile.outputs, ...launcher.metafile.outputs },
};
writeFileSync(metaFile, JSON.stringify(metafile));

// The entries must be executable; each keeps the shebang of its source.
for (const entry of ['cli/mca.cjs', 'cli/main.js'])
  chmodSync(new URL(entry, new URL('../dist/', import.meta.url)), 0o755);

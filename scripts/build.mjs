// Builds the `mca` binary: one esbuild bundle of src/ and its dependencies, split at the dynamic imports so
// `mca --version` loads almost nothing and `-p` never loads Ink or React. A bundle starts about twice as fast as
// Node resolving hundreds of separate ES modules (see BENCHMARKS.md, start-up). Type checking is `npm run typecheck`.
import { chmodSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { toolJsonSchemasPlugin } from './tool-json-schemas.mjs'; // issue 17t: tool JSON Schemas computed at build time

const outdir = new URL('../dist/', import.meta.url).pathname;
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  // Every chunk lives beside main.js, so paths relative to import.meta.url (package.json, prompts/) hold.
  chunkNames: 'cli/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // Ink imports it only when React DevTools are asked for; it is not a dependency.
  external: ['react-devtools-core'],
  // Bundled CommonJS dependencies call require(); ES module output has none of its own.
  banner: {
    js: "import { createRequire as __mcaCreateRequire } from 'node:module'; const require = __mcaCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  // issue 17t: the tools' JSON Schemas are computed here, so the binary loads zod only to validate a tool call.
  plugins: [toolJsonSchemasPlugin()],
});

// The bin entry must be executable; the bundle keeps the shebang of src/cli/main.ts.
chmodSync(new URL('cli/main.js', new URL('../dist/', import.meta.url)), 0o755);

// Build step (issue 42): the code a plain `mca -p` runs goes into one chunk instead of dozens.
//
// esbuild splits a bundle by reachability: each module lands in the chunk of the exact set of entry points (the
// program's entries and every `await import()` target) that reach it by static imports. Every lazy feature (the
// REPL, the checkpoint store, a subagent, MCP, …) also imports parts of the `-p` core, each a different part, so
// the core came out in about 75 chunks, and Node's ES module loader pays per file (resolve, read, compile, link):
// measured, that cost was as large as compiling the bytes (BENCHMARKS.md, "Issue 42 start-up, round four").
//
// The fix: every lazy target that is loaded after the core imports the core's roots as well (side effects only;
// by then they have run, so nothing runs twice or earlier). Then every module of the core is reached by the same
// set of entries and lands in one chunk. Entries that start before the core stay as they are: the program's entry
// (`mca --version`), the command line (`mca --help`, whose path must not load the core), and the roots themselves.
//
// What this costs: the REPL, ACP and headless modes now load print mode's modules as well (about 7 kB they did not
// load before). One of those modules acts when loaded: src/cli/termination.ts installs the exit hook that kills any
// Bash process group still tracked, which ACP mode now gets too, as every other mode had.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { build } from 'esbuild';

/**
 * What a plain `-p` answer runs: print mode and what it reaches by static imports, and the HTTP transport every
 * provider sends its requests through (the providers are imported lazily, by name: without it as a root the
 * transport and its error texts land in chunks of their own, two more files on every path).
 */
export const CORE_ROOTS = ['src/cli/modes/print-mode.ts', 'src/providers/http-transport.ts'];

/** Lazy targets loaded before the core is, or on paths that must not load it; they are left as they are. */
const BEFORE_CORE = new Set(['src/cli/main.ts', 'src/cli/program.ts']);

/** Always loaded before the roots (the command line imports print mode), so a root may import it at no cost. */
const BEFORE_CORE_IMPORTED = ['src/cli/program.ts'];

const CORE = 'mca-core';

/**
 * The built-in tools' working code (src/tools/registry/tool-code.ts), loaded by a tool's first call. Its modules are
 * shared with other lazy features (the walk runner with the checkpoint scan, the line scanner with the edit code):
 * split by esbuild's rule, the first tool call loaded three files. Every lazy target that shares a module with it
 * imports it too (it only defines functions), so it is one chunk; the price is that such a feature (the first edit,
 * the first checkpoint) loads all of the tools' code (about 35 kB) if no tool call has yet.
 */
const TOOL_CODE = 'src/tools/registry/tool-code.ts';

/** Static closure of `roots` in an esbuild metafile's inputs (every import kind but `import()`). */
function staticClosure(inputs, roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length > 0) {
    const path = stack.pop();
    if (seen.has(path) || !inputs[path]) continue;
    seen.add(path);
    for (const edge of inputs[path].imports ?? []) if (edge.kind !== 'dynamic-import') stack.push(edge.path);
  }
  return seen;
}

/**
 * The lazy targets to give the core's import: each `import()` target among our sources that is not a root, not in
 * the core already (an import of the core from inside it would be a cycle) and not loaded before the core. Also
 * those of them that share a module with the built-in tools' working code (TOOL_CODE) and are not part of it.
 */
async function lazyTargets(options) {
  const { metafile } = await build({ ...options, write: false, metafile: true, logLevel: 'silent' });
  const core = staticClosure(metafile.inputs, CORE_ROOTS);
  const targets = new Set();
  for (const input of Object.values(metafile.inputs)) {
    for (const edge of input.imports ?? []) {
      if (edge.kind !== 'dynamic-import' || !edge.path.startsWith('src/')) continue;
      if (core.has(edge.path) || BEFORE_CORE.has(edge.path)) continue;
      targets.add(edge.path);
    }
  }
  const toolCode = staticClosure(metafile.inputs, [TOOL_CODE]);
  const toolOnly = new Set([...toolCode].filter((path) => !core.has(path)));
  const toolCodeUsers = new Set(
    [...targets].filter(
      (target) =>
        !toolCode.has(target) && [...staticClosure(metafile.inputs, [target])].some((path) => toolOnly.has(path)),
    ),
  );
  return { targets, toolCodeUsers };
}

/**
 * The plugin. `options` are the build's own (entry points, plugins but this one, …): a first pass without output
 * finds the lazy targets from its metafile.
 */
export function coreChunkPlugin(options) {
  return {
    name: 'mca-core-chunk',
    async setup(pluginBuild) {
      const root = pluginBuild.initialOptions.absWorkingDir ?? process.cwd();
      const found = await lazyTargets(options);
      const targets = new Set([...found.targets].map((path) => resolve(root, path)));
      const toolCodeUsers = new Set([...found.toolCodeUsers].map((path) => resolve(root, path)));
      const toolCode = `import ${JSON.stringify(resolve(root, TOOL_CODE))};`;
      pluginBuild.onResolve({ filter: new RegExp(`^${CORE}$`) }, () => ({ path: CORE, namespace: CORE }));
      pluginBuild.onLoad({ filter: /.*/, namespace: CORE }, () => ({
        contents: CORE_ROOTS.map((path) => `import ${JSON.stringify(resolve(root, path))};`).join('\n'),
        resolveDir: root,
        loader: 'js',
      }));
      const roots = new Set(CORE_ROOTS.map((path) => resolve(root, path)));
      const before = BEFORE_CORE_IMPORTED.map((path) => `import ${JSON.stringify(resolve(root, path))};`).join('\n');
      pluginBuild.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (!isAbsolute(args.path)) return undefined;
        const loader = args.path.endsWith('.tsx') ? 'tsx' : 'ts';
        const source = () => readFileSync(args.path, 'utf8');
        // Appended: the module's own imports run first, in their order; the core's have run already on `-p`.
        if (targets.has(args.path)) {
          const tools = toolCodeUsers.has(args.path) ? `${toolCode}\n` : '';
          return { contents: `${source()}\n${tools}import '${CORE}';\n`, loader };
        }
        // A root imports the command line, which always ran before it: what both use then lands in the command
        // line's chunk instead of in small chunks of their own.
        // Each root imports the others too, so all of them are reached by the same entries.
        if (roots.has(args.path)) {
          const others = [...roots]
            .filter((path) => path !== args.path)
            .map((path) => `import ${JSON.stringify(path)};`);
          return { contents: `${source()}\n${before}\n${others.join('\n')}\n`, loader };
        }
        return undefined;
      });
    },
  };
}

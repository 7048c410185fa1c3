/**
 * The start path's share of the tools: bundled as the binary is (split at dynamic imports, with the build's
 * generated tool JSON Schemas), the modules loading the registry pulls in statically include none of the heavy
 * ones. zod, fast-glob, ignore and diff are still in the bundle, reachable only through a dynamic import
 * made on the first call of a tool that needs them.
 */
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HEAVY = ['zod', 'fast-glob', 'micromatch', 'ignore', 'diff', 'node-html-markdown', 'node-html-parser'];
const LAZY_SOURCES = ['src/tools/input/input-schemas.ts', 'src/tools/input/input-validation.ts'];
/** Packages only the walk worker loads (src/tools/walking/walk-job.ts), never the registry's graph. */
const IN_WORKER = ['node-html-markdown', 'node-html-parser'];

function packageOf(input: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

/** Every input of the outputs reached from `entry` through static imports only. */
function staticInputs(metafile: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    const chunk = metafile.outputs[output];
    if (!chunk) return;
    for (const input of Object.keys(chunk.inputs)) inputs.add(input);
    for (const imported of chunk.imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(entry);
  return inputs;
}

describe('loading the tool registry', () => {
  it('loads no zod, fast-glob, ignore or diff; they stay behind dynamic imports', async () => {
    const pluginModule = new URL('../../scripts/tool-json-schemas.mjs', import.meta.url).href;
    const { toolJsonSchemasPlugin } = (await import(pluginModule)) as { toolJsonSchemasPlugin: () => Plugin };
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: { registry: 'src/tools/registry/registry.ts' },
      outdir: 'registry-chunks-test-out',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [toolJsonSchemasPlugin()],
    });
    const { metafile } = result;
    // Dynamically imported modules are entry points of their own chunks too: pick the registry's.
    const entry = Object.keys(metafile.outputs).find(
      (output) => metafile.outputs[output]?.entryPoint === 'src/tools/registry/registry.ts',
    )!;
    const onStartPath = staticInputs(metafile, entry);
    const everywhere = new Set(Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs)));

    expect(onStartPath.has('src/tools/registry/registry.ts')).toBe(true);
    expect(onStartPath.has('src/tools/input/input-json-schemas.ts')).toBe(true);
    const heavyOnStart = [...onStartPath].map(packageOf).filter((name) => name !== undefined && HEAVY.includes(name));
    expect(new Set(heavyOnStart)).toEqual(new Set());
    expect(LAZY_SOURCES.filter((source) => onStartPath.has(source))).toEqual([]);

    const bundled = new Set([...everywhere].map(packageOf));
    // node-html-markdown runs in the walk worker now (issue 43: a deadline off the main thread), a bundle of its own
    // that the registry never imports: it is not reachable from here at all, which is what the start path wants.
    for (const name of HEAVY.filter((entry) => !IN_WORKER.includes(entry))) {
      expect(bundled.has(name), `${name} is still bundled, behind a dynamic import`).toBe(true);
    }
    for (const source of LAZY_SOURCES) expect(everywhere.has(source), source).toBe(true);
  });
});

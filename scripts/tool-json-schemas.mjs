// Build step (issue 17): the JSON Schemas of the built-in tools' inputs, computed at build time so the binary
// describes its tools to the model without loading zod. It bundles and runs src/tools/input/input-json-schemas.ts (the
// dev path's own computation from the zod/mini schemas) and gives the binary, in place of that module, one that
// holds the values (and which tools' inputs are plain, for input-quick-check.ts): same exports, same bytes (test/tools/tool-definitions.test.ts compares them with the
// classic-zod golden). `node scripts/tool-json-schemas.mjs` prints them as JSON.
import { Buffer } from 'node:buffer';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const SOURCE = fileURLToPath(new URL('../src/tools/input/input-json-schemas.ts', import.meta.url));

/** src/tools/input/input-json-schemas.ts, bundled and imported. */
async function computedModule() {
  const bundled = await build({
    entryPoints: [SOURCE],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  const code = bundled.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/** The value `builtinInputJsonSchemas()` returns on the dev path, computed by running that module bundled. */
export async function computeToolJsonSchemas() {
  return (await computedModule()).builtinInputJsonSchemas();
}

/** The module the binary gets instead of src/tools/input/input-json-schemas.ts. */
export async function generatedModule() {
  const module = await computedModule();
  const schemas = JSON.stringify(module.builtinInputJsonSchemas());
  const plain = JSON.stringify(module.builtinPlainInputs());
  return [
    '// Generated at build time by scripts/tool-json-schemas.mjs from src/tools/input/input-json-schemas.ts.',
    `const schemas = ${schemas};`,
    `const plain = ${plain};`,
    'export function builtinInputJsonSchemas() {',
    '  return schemas;',
    '}',
    'export function builtinPlainInputs() {',
    '  return plain;',
    '}',
    '',
  ].join('\n');
}

/** esbuild plugin: replaces src/tools/input/input-json-schemas.ts with the generated module. */
export function toolJsonSchemasPlugin() {
  return {
    name: 'tool-json-schemas',
    setup(build) {
      build.onLoad({ filter: /input-json-schemas\.ts$/ }, async (args) => {
        if (args.path !== SOURCE) return undefined;
        return { loader: 'js', contents: await generatedModule() };
      });
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await computeToolJsonSchemas())}\n`);
}

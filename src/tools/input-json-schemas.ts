/**
 * The JSON Schema of every built-in tool's input, as the native `tools` definitions and the text protocol's
 * parameter docs carry it: `z.toJSONSchema(schema, { io: 'input' })` without the `$schema` key.
 *
 * This is the dev path (vitest and tsx run src/ unbuilt): it computes them from the zod/mini schemas. The build
 * replaces this whole module with the values it computes by running this very function
 * (scripts/tool-json-schemas.mjs), so the binary describes its tools without loading zod, and the two cannot differ.
 * The replacement keeps this module's exports.
 */
import { toJSONSchema } from 'zod/mini';
import type { JsonSchemaObject } from './define-tool.js';
import { allBuiltinInputSchemas, type BuiltinToolName } from './input-schemas.js';

let computed: Readonly<Record<BuiltinToolName, JsonSchemaObject>> | undefined;

export function builtinInputJsonSchemas(): Readonly<Record<BuiltinToolName, JsonSchemaObject>> {
  computed ??= Object.fromEntries(
    Object.entries(allBuiltinInputSchemas()).map(([name, schema]) => {
      const { $schema: _dialect, ...json } = toJSONSchema(schema, { io: 'input' });
      return [name, json];
    }),
  ) as Record<string, JsonSchemaObject> as Record<BuiltinToolName, JsonSchemaObject>;
  return computed;
}

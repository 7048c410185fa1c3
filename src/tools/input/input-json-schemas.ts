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
import type { $ZodType } from 'zod/v4/core';
import type { JsonSchemaObject } from '../registry/define-tool.js';
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

/** Whether a zod schema changes a value while parsing it (an `overwrite` check such as trim, a transform or pipe). */
function transforms(schema: $ZodType): boolean {
  const def = schema._zod.def as {
    type: string;
    checks?: ReadonlyArray<{ _zod: { def: { check: string } } }>;
    shape?: Record<string, $ZodType>;
    element?: $ZodType;
    innerType?: $ZodType;
  };
  if (['pipe', 'transform', 'preprocess'].includes(def.type)) return true;
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) return true;
  const inner = [...Object.values(def.shape ?? {}), def.element, def.innerType];
  return inner.some((part) => part !== undefined && transforms(part));
}

let plain: Readonly<Record<BuiltinToolName, boolean>> | undefined;

/**
 * Per built-in tool: whether its input, once valid, is the parsed value with defaults added and nothing changed,
 * so its JSON Schema alone can accept it (input-quick-check.ts). False for a schema that trims or transforms.
 */
export function builtinPlainInputs(): Readonly<Record<BuiltinToolName, boolean>> {
  plain ??= Object.fromEntries(
    Object.entries(allBuiltinInputSchemas()).map(([name, schema]) => [name, !transforms(schema as $ZodType)]),
  ) as Record<BuiltinToolName, boolean>;
  return plain;
}

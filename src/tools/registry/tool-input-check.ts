/**
 * A call's input checked against its tool's schema, before the tool plans or anything is asked: the built-in tools
 * through zod (mini, imported on the first call), the others (MCP, the SDK host's) through their JSON Schema (ajv,
 * compiled on the tool's first call). A failure is the INVALID_PARAM envelope the model reads.
 */
import type { $ZodType } from 'zod/v4/core';
import type { ToolDefinition } from './define-tool.js';
import { errorEnvelope, type ToolEnvelope } from './envelope.js';
import type * as InputValidation from '../input/input-validation.js';
import type { JsonInputCheck } from '../input/json-schema-validation.js';
import { once } from './lazy-modules.js';

/** The input's field names, in the schema's order (the model is told them in errors). */
function fieldsOf(tool: ToolDefinition): string[] {
  const properties = tool.input.jsonSchema.properties;
  return properties !== null && typeof properties === 'object' ? Object.keys(properties) : [];
}

/** The validator, imported on the first tool call: it and the schemas bring zod (mini), which nothing else needs. */
export const loadInputValidation: () => Promise<typeof InputValidation> = once(
  () => import('../input/input-validation.js'),
);

/** Checks a call's input against the tool's schema: the parsed input, or the INVALID_PARAM envelope. */
export async function checkToolInput(
  tool: ToolDefinition,
  rawInput: unknown,
): Promise<{ ok: true; data: unknown } | { ok: false; envelope: ToolEnvelope }> {
  const { name } = tool;
  if (rawInput === null || typeof rawInput !== 'object' || Array.isArray(rawInput)) {
    const message = `Invalid input for ${name}: expected a JSON object such as {"${fieldsOf(tool)[0] ?? 'field'}": ...}.`;
    return { ok: false, envelope: errorEnvelope('INVALID_PARAM', message) };
  }
  let parsed: InputValidation.InputCheck<$ZodType> | JsonInputCheck;
  try {
    const { input } = tool;
    const quick = 'load' in input ? input.quickCheck?.(rawInput) : undefined;
    if (quick) parsed = quick;
    else if ('load' in input) {
      const [{ checkInput }, schema] = await Promise.all([loadInputValidation(), input.load()]);
      parsed = checkInput(name, schema, rawInput, fieldsOf(tool));
    } else {
      parsed = (await jsonSchemaCheck(tool))(rawInput);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, envelope: errorEnvelope('INTERNAL_ERROR', `${name} could not check its input: ${message}`) };
  }
  if (!parsed.ok) {
    return { ok: false, envelope: errorEnvelope('INVALID_PARAM', parsed.message, { context: { input: rawInput } }) };
  }
  return { ok: true, data: parsed.data };
}

const jsonSchemaChecks = new WeakMap<ToolDefinition, Promise<(raw: unknown) => JsonInputCheck>>();

/** A JSON Schema tool's compiled check: ajv is imported, and the schema compiled, on the tool's first call. */
function jsonSchemaCheck(tool: ToolDefinition): Promise<(raw: unknown) => JsonInputCheck> {
  let check = jsonSchemaChecks.get(tool);
  if (!check) {
    check = import('../input/json-schema-validation.js').then(({ compileJsonSchema }) =>
      compileJsonSchema(tool.name, tool.input.jsonSchema, fieldsOf(tool)),
    );
    // A schema that does not compile fails this call; the next call tries again.
    check.catch(() => jsonSchemaChecks.delete(tool));
    jsonSchemaChecks.set(tool, check);
  }
  return check;
}

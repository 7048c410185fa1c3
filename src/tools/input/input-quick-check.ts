/**
 * A built-in tool's input accepted without zod: checked against the build-time JSON Schema (input-json-schemas.ts),
 * defaults applied. Loading zod/mini and building the tool's schema cost ~5 ms on a tool's first call, most of a
 * step's own time; almost every call the model makes is valid. The check only ever says "valid, here is the
 * parsed input" or "not sure": every input it does not accept (an error, or a schema keyword it does not know) is
 * checked by the zod schema as before, so the INVALID_PARAM messages the model reads are zod's, unchanged. A tool
 * whose schema transforms values (trim) never takes this path (input-json-schemas.ts marks it).
 * test/tools/input-quick-check.test.ts holds the contract: whatever this accepts, zod accepts, with equal output.
 */
import type { JsonSchemaObject } from '../registry/define-tool.js';

const UNSURE = Symbol('unsure');
type Parsed = unknown;

/** Keywords this check understands; a schema with any other one is left to zod. */
const KNOWN = new Set([
  'type',
  'description',
  'default',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'enum',
]);

const patterns = new Map<string, RegExp>();

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const num = (schema: JsonSchemaObject, key: string): number | undefined =>
  typeof schema[key] === 'number' ? (schema[key] as number) : undefined;

function withinLength(length: number, schema: JsonSchemaObject, min: string, max: string): boolean {
  return length >= (num(schema, min) ?? 0) && length <= (num(schema, max) ?? Infinity);
}

function parseObject(schema: JsonSchemaObject, value: unknown): Parsed {
  const properties = schema.properties;
  if (!isObject(value) || !isObject(properties) || schema.additionalProperties !== false) return UNSURE;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(properties, key) || value[key] === undefined) return UNSURE;
  }
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (!isObject(property)) return UNSURE;
    if (!Object.hasOwn(value, key)) {
      if (Object.hasOwn(property, 'default')) out[key] = structuredClone(property.default);
      else if (required.includes(key)) return UNSURE;
      continue;
    }
    const parsed = parse(property, value[key]);
    if (parsed === UNSURE) return UNSURE;
    out[key] = parsed;
  }
  return out;
}

function parse(schema: JsonSchemaObject, value: unknown): Parsed {
  if (Object.keys(schema).some((key) => !KNOWN.has(key))) return UNSURE;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return UNSURE;
  switch (schema.type) {
    case 'object':
      return parseObject(schema, value);
    case 'array': {
      if (!Array.isArray(value) || !withinLength(value.length, schema, 'minItems', 'maxItems')) return UNSURE;
      if (!isObject(schema.items)) return UNSURE;
      const out: unknown[] = [];
      for (const item of value) {
        const parsed = parse(schema.items, item);
        if (parsed === UNSURE) return UNSURE;
        out.push(parsed);
      }
      return out;
    }
    case 'string': {
      if (typeof value !== 'string' || !withinLength(value.length, schema, 'minLength', 'maxLength')) return UNSURE;
      if (typeof schema.pattern === 'string') {
        let regex = patterns.get(schema.pattern);
        if (!regex) patterns.set(schema.pattern, (regex = new RegExp(schema.pattern)));
        if (!regex.test(value)) return UNSURE;
      }
      return value;
    }
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return UNSURE;
      if (schema.type === 'integer' && !Number.isSafeInteger(value)) return UNSURE;
      return value >= (num(schema, 'minimum') ?? -Infinity) && value <= (num(schema, 'maximum') ?? Infinity)
        ? value
        : UNSURE;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : UNSURE;
    default:
      return UNSURE;
  }
}

/** The parsed input (defaults applied) when `raw` is certainly valid for `schema`; undefined when zod must decide. */
export function quickCheck(schema: JsonSchemaObject, raw: unknown): { ok: true; data: unknown } | undefined {
  const parsed = parse(schema, raw);
  return parsed === UNSURE ? undefined : { ok: true, data: parsed };
}

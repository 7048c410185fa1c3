/**
 * The "Parameters (JSON):" section of a tool prompt, generated from the JSON Schema of the tool's input (the same
 * one the native `tools` definitions carry): one line per field with its type, range, default or whether it is
 * required, and the field's `.describe()` text. The prompt files keep only the prose and mark the place with
 * PARAMETERS_PLACEHOLDER, so the text protocol's prompt and the native definitions come from one source.
 */
import { jsonSchemaOf, type JsonSchemaObject, type SelfDescribingSchema } from './define-tool.js';

export const PARAMETERS_PLACEHOLDER = '{{parameters}}';

type JsonSchema = {
  type?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** Bounds the model needs; a bound zod adds only for safety (MAX_SAFE_INTEGER) says nothing and is left out. */
function range(low: number | undefined, high: number | undefined, unit = ''): string {
  const max = high !== undefined && high < Number.MAX_SAFE_INTEGER ? high : undefined;
  if (low !== undefined && max !== undefined) return `${unit}${low}–${max}`;
  if (max !== undefined) return `up to ${max}`;
  if (low !== undefined && low !== 0) return `≥ ${low}`;
  if (low === 0 && unit === '') return '≥ 0';
  return '';
}

function typeOf(field: JsonSchema): string {
  if (field.enum) return field.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (field.type === 'integer') return ['integer', range(field.minimum, field.maximum)].filter(Boolean).join(' ');
  if (field.type === 'array') {
    if (field.items?.type === 'string') return 'string[]';
    const bounds = range(field.minItems, field.maxItems, 'of ');
    return bounds === '' ? 'array' : bounds.startsWith('of') ? `array ${bounds}` : `array, ${bounds}`;
  }
  return field.type ?? 'value';
}

function parameterLine(name: string, field: JsonSchema, required: boolean): string {
  const facts = [typeOf(field)];
  if (field.default !== undefined) facts.push(`default ${JSON.stringify(field.default)}`);
  else facts.push(required ? 'required' : 'optional');
  const about = field.description?.trim();
  return `- \`${name}\` (${facts.join(', ')})${about ? `: ${about}` : '.'}`;
}

/** The section for an input given as JSON Schema. */
export function parameterSectionOf(jsonSchema: JsonSchemaObject): string {
  const json = jsonSchema as JsonSchema;
  const required = new Set(json.required ?? []);
  const lines = Object.entries(json.properties ?? {}).map(([name, field]) =>
    parameterLine(name, field, required.has(name)),
  );
  return ['Parameters (JSON):', ...lines].join('\n');
}

/** The section for an input given as a zod schema that describes itself (classic zod). */
export function parameterSection(schema: SelfDescribingSchema): string {
  return parameterSectionOf(jsonSchemaOf(schema));
}

/** A tool prompt with its parameter section generated in place (a prompt without the placeholder is kept whole). */
export function withParameters(prompt: string, jsonSchema: JsonSchemaObject): string {
  return prompt.replace(PARAMETERS_PLACEHOLDER, () => parameterSectionOf(jsonSchema));
}

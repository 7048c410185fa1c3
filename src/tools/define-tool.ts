import type { $ZodType, output } from 'zod/v4/core';
import type { ToolEnvelope } from './envelope.js';
import type { ToolContext } from './tool-context.js';

export type PermissionKind = 'none' | 'edit' | 'exec' | 'plan';

/** A JSON Schema object, as the native `tools` definitions carry it (no `$schema` key). */
export type JsonSchemaObject = Record<string, unknown>;

/**
 * A tool's input as the registry needs it: the JSON Schema the model is told, at once, and the zod schema (classic
 * or mini) that validates a call, only when the tool is first called. The built-in tools' schemas load lazily
 * (builtin-input.ts), so describing the tools to the model never loads zod.
 */
export interface ToolInput<Schema extends $ZodType = $ZodType> {
  readonly jsonSchema: JsonSchemaObject;
  load(): Promise<Schema>;
}

/** A zod schema that can describe itself as JSON Schema (Standard JSON Schema; classic zod's schemas can). */
export interface SelfDescribingSchema {
  readonly '~standard': {
    readonly jsonSchema: { input(options: { readonly target: 'draft-2020-12' }): Record<string, unknown> };
  };
}

/**
 * A tool the model can call. `run` receives input already validated by its input schema and must return an
 * envelope for every outcome; the registry still guards against throws.
 */
export interface ToolDefinition<Schema extends $ZodType = $ZodType> {
  /** The name the model writes in `Action: Name[{...}]`. */
  readonly name: string;
  /** File name under prompts/tools/, e.g. "Read.md". */
  readonly promptFile: string;
  readonly input: ToolInput<Schema>;
  /**
   * What the tool may do, enforced by the registry: `none` never asks (it only reads, so several run concurrently;
   * an approval it asks for anyway is refused), `edit` changes files (`acceptEdits` allows it), `exec` runs commands,
   * `plan` changes nothing itself but asks the user to approve a plan (ExitPlanMode; never run concurrently).
   */
  readonly permission: PermissionKind;
  /**
   * Imports the libraries the tool loads on its first call (see lazy-modules.ts). The registry calls it while
   * mca waits anyway (the first model request, the REPL's first prompt), never before a request; a failure is
   * ignored here and reported by the call that needs the library.
   */
  readonly preload?: () => Promise<unknown>;
  run(input: output<Schema>, ctx: ToolContext): Promise<ToolEnvelope>;
}

/** What defineTool takes: the input either as a whole zod schema that describes itself, or as a lazy ToolInput. */
export interface ToolDefinitionInit<Schema extends $ZodType> {
  readonly name: string;
  readonly promptFile: string;
  readonly inputSchema: (Schema & SelfDescribingSchema) | ToolInput<Schema>;
  readonly permission: PermissionKind;
  readonly preload?: () => Promise<unknown>;
  run(input: output<Schema>, ctx: ToolContext): Promise<ToolEnvelope>;
}

/** The JSON Schema of a zod schema's input, without the `$schema` dialect key (the same as `z.toJSONSchema`'s). */
export function jsonSchemaOf(schema: SelfDescribingSchema): JsonSchemaObject {
  const { $schema: _dialect, ...json } = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  return json;
}

function isToolInput<Schema extends $ZodType>(
  input: (Schema & SelfDescribingSchema) | ToolInput<Schema>,
): input is ToolInput<Schema> {
  return !('_zod' in input);
}

export function defineTool<Schema extends $ZodType>(definition: ToolDefinitionInit<Schema>): ToolDefinition<Schema> {
  const { inputSchema, ...rest } = definition;
  const input: ToolInput<Schema> = isToolInput(inputSchema)
    ? inputSchema
    : { jsonSchema: jsonSchemaOf(inputSchema), load: () => Promise.resolve(inputSchema) };
  return Object.freeze({ ...rest, input });
}

import type { $ZodType, output } from 'zod/v4/core';
import type { ToolEnvelope } from './envelope.js';
import type { ApprovalRequest, ToolContext } from './tool-context.js';

export type PermissionKind = 'none' | 'edit' | 'exec' | 'plan';

/** Who caused a call: the model, a `!` line the user typed, a custom command's `!` line, or a subagent. */
import type { CallSource } from './tool-context.js';

export type { CallSource };

/** One tool call from parse to result. `id` is the native tool_use id or a generated `toolu_…` (text protocol). */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly source: CallSource;
}

/** What the decision point answers. `deny.message` reaches the model inside the PERMISSION_DENIED envelope. */
export type PermissionDecision =
  | { behavior: 'allow'; updatedInput?: unknown; remember?: boolean; persist?: boolean }
  | { behavior: 'deny'; message?: string };

/**
 * The one pre-execution decision point. The registry calls it for EVERY call after input validation and before
 * execution, read-only tools included (`request` undefined then: deny/ask rules still apply). `request` is what
 * the tool would ask, computed by its definition before anything runs; a call that fails anyway never gets here.
 */
export type DecideFn = (call: ToolCall, request: ApprovalRequest | undefined) => Promise<PermissionDecision>;

/**
 * What a call would do, worked out before anything changes: either the failure it ends in (no question asked),
 * or the approval it needs (none for a tool that only reads) and the work that runs once it is allowed.
 */
export type ToolPlan =
  | { readonly ok: false; readonly envelope: ToolEnvelope }
  | { readonly ok: true; readonly request?: ApprovalRequest; readonly execute: () => Promise<ToolEnvelope> };

/** A plan that ends in this envelope without asking anything. */
export function failedPlan(envelope: ToolEnvelope): ToolPlan {
  return { ok: false, envelope };
}

/** A plan that asks `request` (undefined: nothing to ask) and then runs `execute`. */
export function readyPlan(request: ApprovalRequest | undefined, execute: () => Promise<ToolEnvelope>): ToolPlan {
  return request ? { ok: true, request, execute } : { ok: true, execute };
}

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
 * A tool the model can call. `prepare` receives input already validated by its input schema and returns the
 * call's plan: a failure, or the approval it needs and the work to run. The registry asks the session's decision
 * point between the two; it still guards against throws.
 */
export interface ToolDefinition<Schema extends $ZodType = $ZodType> {
  /** The name the model writes in `Action: Name[{...}]`. */
  readonly name: string;
  /** File name under prompts/tools/, e.g. "Read.md". */
  readonly promptFile: string;
  readonly input: ToolInput<Schema>;
  /**
   * What the tool may do, enforced by the registry: `none` never asks (it only reads, so several run concurrently;
   * a plan that asks anyway is refused), `edit` changes files (`acceptEdits` allows it), `exec` runs commands,
   * `plan` changes nothing itself but asks the user to approve a plan (ExitPlanMode; never run concurrently).
   */
  readonly permission: PermissionKind;
  /**
   * Imports the libraries the tool loads on its first call (see lazy-modules.ts). The registry calls it while
   * mca waits anyway (the first model request, the REPL's first prompt), never before a request; a failure is
   * ignored here and reported by the call that needs the library.
   */
  readonly preload?: () => Promise<unknown>;
  prepare(input: output<Schema>, ctx: ToolContext): Promise<ToolPlan>;
}

interface ToolDefinitionBase<Schema extends $ZodType> {
  readonly name: string;
  readonly promptFile: string;
  readonly inputSchema: (Schema & SelfDescribingSchema) | ToolInput<Schema>;
  readonly permission: PermissionKind;
  readonly preload?: () => Promise<unknown>;
}

/**
 * What defineTool takes: the input either as a whole zod schema that describes itself, or as a lazy ToolInput;
 * then `prepare` (a tool that asks before it changes something) or just `run` (a tool with nothing to ask).
 */
export type ToolDefinitionInit<Schema extends $ZodType> = ToolDefinitionBase<Schema> &
  (
    | { prepare(input: output<Schema>, ctx: ToolContext): Promise<ToolPlan>; run?: never }
    | { run(input: output<Schema>, ctx: ToolContext): Promise<ToolEnvelope>; prepare?: never }
  );

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
  const { name, promptFile, inputSchema, permission, preload } = definition;
  const input: ToolInput<Schema> = isToolInput(inputSchema)
    ? inputSchema
    : { jsonSchema: jsonSchemaOf(inputSchema), load: () => Promise.resolve(inputSchema) };
  return Object.freeze({
    name,
    promptFile,
    input,
    permission,
    ...(preload ? { preload } : {}),
    prepare: planner(definition),
  });
}

/** A tool given as `run` only has nothing to ask: its plan is to run. */
function planner<Schema extends $ZodType>(definition: ToolDefinitionInit<Schema>): ToolDefinition<Schema>['prepare'] {
  if (definition.prepare !== undefined) return definition.prepare;
  const { run } = definition;
  return (args, ctx) => Promise.resolve(readyPlan(undefined, () => run(args, ctx)));
}

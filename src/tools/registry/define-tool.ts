import type { $ZodType, output } from 'zod/v4/core';
import type { ToolEnvelope } from './envelope.js';
import type { ApprovalRequest, ToolContext } from './tool-context.js';

/** The call and the decision point's types live beside ToolContext (which carries the call gate). */
export type { CallSource, DecideFn, PermissionDecision, ToolCall } from './tool-context.js';

export type PermissionKind = 'none' | 'edit' | 'exec' | 'plan';

/**
 * What a call does, for a front that shows it by category (ACP's tool kinds; an editor picks an icon and may
 * follow the files). Independent of PermissionKind: it decides nothing. Absent: `other`.
 */
export type ToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'other';

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

/** A file a call touched, as the facts ledger lists it. */
export interface FileTouch {
  readonly path: string;
  readonly kind: 'read' | 'edited' | 'created' | 'deleted';
}

/** Plain JSON data: a tool's input or its result's `data`, which claim a shape but are checked before use. */
export type JsonRecord = Record<string, unknown>;

/**
 * How the transcript shows a tool's calls. Every member is optional: without one the generic default applies
 * (the input as JSON in `Tool(…)`, the result's first text line, no diff).
 */
export interface ToolDisplay {
  /** The argument in `Tool(arg)`: a path, a pattern, a command. */
  title?(input: JsonRecord): string;
  /** The `⎿` line of a result that did not fail. */
  summary?(data: JsonRecord, result: ToolEnvelope): string;
  /** A diff to show under a successful result (an edit's, or a new file's lines as added lines). */
  diff?(data: JsonRecord): string | undefined;
  /**
   * The result is a command's `stdout`/`stderr`: their tail is shown under the call instead of the text, and a
   * non-zero `exit_code` is a failure even in a replayed result.
   */
  streams?: boolean;
  /** A resumed session's transcript: the data shown, rebuilt from the compressed form history kept. */
  replay?(compressed: JsonRecord): JsonRecord;
  /** The change a call proposes, as whole texts an editor shows as diffs (ACP), before and after it ran. */
  changes?(input: JsonRecord): ProposedChange[];
  /** The line of its file a call starts at (an editor opens the file there); absent: the top. */
  line?(input: JsonRecord): number | undefined;
  /** The call's list as a plan an editor shows (a todo list): each item's text and status. */
  plan?(input: JsonRecord): PlanItem[] | undefined;
}

/** One proposed change of a file: `path` as the input names it; `oldText` null for a new file. */
export interface ProposedChange {
  readonly path: string;
  readonly oldText: string | null;
  readonly newText: string;
}

export interface PlanItem {
  readonly content: string;
  readonly status: string;
}

/**
 * What the context engine, the facts ledger and the transcript know about a tool's results, held by the tool
 * itself. Each member is optional; a tool without one gets DESIGN.md's generic behaviour (unknown-tool rule).
 */
export interface ToolMembers {
  /** The history form of a result's data (DESIGN.md "ToolResultCompressor"); undefined: the data had the wrong shape. */
  readonly compress?: (data: JsonRecord) => JsonRecord | undefined;
  /** The one-line form of compressed data (degradation level 2); undefined: no better line than the generic one. */
  readonly shrink?: (data: JsonRecord) => string | undefined;
  /** Files a successful call touched (the ledger's Files lines). */
  readonly locations?: (input: JsonRecord, data: JsonRecord) => FileTouch[];
  /** The command a call ran, for the ledger's Commands line (with its exit code). */
  readonly command?: (input: JsonRecord) => string | undefined;
  readonly display?: ToolDisplay;
  /** False when the full result is not kept for Recall again (Recall's own output already is a stored result). */
  readonly storeResult?: boolean;
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
  /**
   * Optional: the parsed input when `raw` is certainly valid, without loading the zod schema; undefined to let the
   * zod schema decide (and word any error). It must accept nothing zod rejects and return what zod would.
   */
  quickCheck?(raw: unknown): { ok: true; data: unknown } | undefined;
}

/**
 * A tool input given only as a JSON Schema (an MCP tool's, or a tool written without zod): the model is told the
 * schema as it is, and a call is checked against it by ajv, loaded on the first call of such a tool.
 */
export interface JsonSchemaInput {
  readonly jsonSchema: JsonSchemaObject;
  readonly validator: 'json-schema';
}

/** The input of a tool defined with a JSON Schema only. */
export function jsonSchemaInput(jsonSchema: JsonSchemaObject): JsonSchemaInput {
  return { jsonSchema, validator: 'json-schema' };
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
export interface ToolDefinition<Schema extends $ZodType = $ZodType> extends ToolMembers {
  /** The name the model writes in `Action: Name[{...}]`. */
  readonly name: string;
  /**
   * Other names a call may use for this tool (an older name the models still write: the Agent tool's `Task`). The
   * registry and the tool catalog resolve them to `name`: the model is told `name` only, a call under an alias
   * runs this tool, and everything past the registry (decision point, rules, hooks) sees `name`.
   */
  readonly aliases?: readonly string[];
  /** The description the model is told: a prompt file under prompts/tools/ (e.g. "Read.md"), or the text itself. */
  readonly description: ToolDescription;
  readonly input: ToolInput<Schema> | JsonSchemaInput;
  /**
   * What the tool may do, enforced by the registry: `none` never asks (it only reads, so several run concurrently;
   * a plan that asks anyway is refused), `edit` changes files (`acceptEdits` allows it), `exec` runs commands,
   * `plan` changes nothing itself but asks the user to approve a plan (ExitPlanMode; never run concurrently).
   */
  readonly permission: PermissionKind;
  /** What a call does, by category (see ToolKind). */
  readonly kind?: ToolKind;
  /**
   * Imports the libraries the tool loads on its first call (see lazy-modules.ts). The registry calls it while
   * mca waits anyway (the first model request, the REPL's first prompt), never before a request; a failure is
   * ignored here and reported by the call that needs the library.
   */
  readonly preload?: () => Promise<unknown>;
  /**
   * A final tool (`--json-schema`'s StructuredOutput): a call that succeeds ends the turn with its input as the
   * answer; a reply that calls nothing is answered with `nudge`; `maxAttempts` replies that miss (no call, or a
   * call that fails) end the turn with STRUCTURED_OUTPUT_RETRIES. src/loop/final-tool.ts applies it.
   */
  readonly final?: { readonly maxAttempts: number; readonly nudge: string };
  prepare(input: output<Schema>, ctx: ToolContext): Promise<ToolPlan>;
}

/** Where a tool's description comes from: a file under prompts/tools/, or text given with the definition. */
export type ToolDescription = { readonly promptFile: string } | { readonly text: string };

interface ToolDefinitionBase<Schema extends $ZodType> extends ToolMembers {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly inputSchema: (Schema & SelfDescribingSchema) | ToolInput<Schema> | JsonSchemaInput;
  readonly permission: PermissionKind;
  readonly kind?: ToolKind;
  readonly preload?: () => Promise<unknown>;
}

/**
 * What defineTool takes: a prompt file or a description text; the input either as a whole zod schema that
 * describes itself, or as a lazy ToolInput (a JSON Schema tool's: json-schema-input.ts); then `prepare` (a tool
 * that asks before it changes something) or just `run` (a tool with nothing to ask).
 */
export type ToolDefinitionInit<Schema extends $ZodType> = ToolDefinitionBase<Schema> &
  (
    | { readonly promptFile: string; readonly description?: never }
    | { readonly description: string; readonly promptFile?: never }
  ) &
  (
    | { prepare(input: output<Schema>, ctx: ToolContext): Promise<ToolPlan>; run?: never }
    | { run(input: output<Schema>, ctx: ToolContext): Promise<ToolEnvelope>; prepare?: never }
  );

/** The JSON Schema of a zod schema's input, without the `$schema` dialect key (the same as `z.toJSONSchema`'s). */
export function jsonSchemaOf(schema: SelfDescribingSchema): JsonSchemaObject {
  const { $schema: _dialect, ...json } = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  return json;
}

function isZodSchema<Schema extends $ZodType>(
  input: (Schema & SelfDescribingSchema) | ToolInput<Schema> | JsonSchemaInput,
): input is Schema & SelfDescribingSchema {
  return '_zod' in input;
}

export function defineTool<Schema extends $ZodType>(definition: ToolDefinitionInit<Schema>): ToolDefinition<Schema> {
  const { name, aliases, inputSchema, permission, kind, preload } = definition;
  const input: ToolInput<Schema> | JsonSchemaInput = isZodSchema(inputSchema)
    ? { jsonSchema: jsonSchemaOf(inputSchema), load: () => Promise.resolve(inputSchema) }
    : inputSchema;
  const members: ToolMembers = {
    ...(definition.compress ? { compress: definition.compress } : {}),
    ...(definition.shrink ? { shrink: definition.shrink } : {}),
    ...(definition.locations ? { locations: definition.locations } : {}),
    ...(definition.command ? { command: definition.command } : {}),
    ...(definition.display ? { display: definition.display } : {}),
    ...(definition.storeResult === undefined ? {} : { storeResult: definition.storeResult }),
  };
  return Object.freeze({
    name,
    ...(aliases && aliases.length > 0 ? { aliases: [...aliases] } : {}),
    description: descriptionOf(definition),
    input,
    permission,
    ...(kind ? { kind } : {}),
    ...(preload ? { preload } : {}),
    ...members,
    prepare: planner(definition),
  });
}

function descriptionOf<Schema extends $ZodType>(definition: ToolDefinitionInit<Schema>): ToolDescription {
  return definition.promptFile !== undefined ? { promptFile: definition.promptFile } : { text: definition.description };
}

/** A tool given as `run` only has nothing to ask: its plan is to run. */
function planner<Schema extends $ZodType>(definition: ToolDefinitionInit<Schema>): ToolDefinition<Schema>['prepare'] {
  if (definition.prepare !== undefined) return definition.prepare;
  const { run } = definition;
  return (args, ctx) => Promise.resolve(readyPlan(undefined, () => run(args, ctx)));
}

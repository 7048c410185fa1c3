import type { z } from 'zod';
import type { ToolEnvelope } from './envelope.js';
import type { ToolContext } from './tool-context.js';

export type PermissionKind = 'none' | 'edit' | 'exec' | 'plan';

/**
 * A tool the model can call. `run` receives input already validated by `inputSchema` and must return an
 * envelope for every outcome; the registry still guards against throws.
 */
export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  /** The name the model writes in `Action: Name[{...}]`. */
  readonly name: string;
  /** File name under prompts/tools/, e.g. "Read.md". */
  readonly promptFile: string;
  readonly inputSchema: Schema;
  /**
   * What the tool may do, enforced by the registry: `none` never asks (it only reads, so several run concurrently;
   * an approval it asks for anyway is refused), `edit` changes files (`acceptEdits` allows it), `exec` runs commands,
   * `plan` changes nothing itself but asks the user to approve a plan (ExitPlanMode; never run concurrently).
   */
  readonly permission: PermissionKind;
  run(input: z.output<Schema>, ctx: ToolContext): Promise<ToolEnvelope>;
}

export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return Object.freeze({ ...definition });
}

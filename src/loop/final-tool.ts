/**
 * A final tool in native tool use (ToolDefinition.final; `--json-schema`'s StructuredOutput): while one is
 * registered, a turn ends only through it. A successful call ends the turn with its input as the answer (the JSON
 * text, and the value as `structuredOutput`); a reply that calls nothing, or a call that fails (its input did not
 * match the schema), is a miss: the model is told (the nudge, or the call's error) and tries again, and the
 * `maxAttempts`-th miss ends the turn with STRUCTURED_OUTPUT_RETRIES.
 */
import type { ToolDefinition } from '../tools/registry/define-tool.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import type { RoundOutcome, TurnState } from './turn-state.js';

export const STRUCTURED_OUTPUT_RETRIES = 'STRUCTURED_OUTPUT_RETRIES';

type FinalTool = ToolDefinition & { final: NonNullable<ToolDefinition['final']> };

const misses = new WeakMap<TurnState, number>();

export function finalToolOf(registry: ToolRegistry): FinalTool | undefined {
  return registry.list().find((tool): tool is FinalTool => tool.final !== undefined);
}

/** Counts one miss of the turn; the outcome that ends it once the misses reach the tool's limit. */
export function missFinalTool(turn: TurnState, tool: FinalTool): RoundOutcome | undefined {
  const count = (misses.get(turn) ?? 0) + 1;
  misses.set(turn, count);
  if (count < tool.final.maxAttempts) return undefined;
  const message = `The model did not give valid ${tool.name} output after ${count} attempts; stopping.`;
  return { reason: 'error', answer: message, error: { code: STRUCTURED_OUTPUT_RETRIES, message } };
}

/** The outcome of a call of the final tool: the turn's answer when it succeeded, a miss otherwise. */
export function finalToolResult(
  turn: TurnState,
  tool: FinalTool,
  input: unknown,
  envelope: ToolEnvelope,
): RoundOutcome | undefined {
  if (envelope.status === 'error') return missFinalTool(turn, tool);
  return { reason: 'answer', answer: JSON.stringify(input), structuredOutput: input };
}

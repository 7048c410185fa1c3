/**
 * The StructuredOutput tool of `--json-schema` (and the Agent SDK's `outputFormat`), as Claude Code offers it: the
 * model answers by calling it with input that matches the schema. Its input schema is the user's schema, so the
 * registry checks a call against it (ajv) before it runs and the model reads every mismatch. It is a final tool
 * (ToolDefinition.final): a call that passes ends the turn with the input as the answer (`structured_output`), a
 * reply that calls nothing is told to call it, and `maxAttempts` misses end the turn with
 * STRUCTURED_OUTPUT_RETRIES (src/loop/final-tool.ts).
 */
import { jsonSchemaInput, defineTool, type JsonSchemaObject, type ToolDefinition } from '../registry/define-tool.js';
import { successEnvelope } from '../registry/envelope.js';

export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';
/** Claude Code's: the first try and four more. */
export const STRUCTURED_OUTPUT_ATTEMPTS = 5;

const DESCRIPTION =
  'Use this tool to return your final response in the requested structured format. You MUST call this tool ' +
  'exactly once at the end of your response to provide the structured output.';

const NUDGE = `You MUST call the ${STRUCTURED_OUTPUT_TOOL} tool to complete this request. Call this tool now.`;

export function createStructuredOutputTool(
  schema: JsonSchemaObject,
  maxAttempts = STRUCTURED_OUTPUT_ATTEMPTS,
): ToolDefinition {
  const tool = defineTool({
    name: STRUCTURED_OUTPUT_TOOL,
    description: DESCRIPTION,
    inputSchema: jsonSchemaInput(schema),
    permission: 'none',
    kind: 'other',
    run(input) {
      return Promise.resolve(successEnvelope({ output: input }, 'Structured output provided successfully'));
    },
  });
  return { ...tool, final: { maxAttempts, nudge: NUDGE } };
}

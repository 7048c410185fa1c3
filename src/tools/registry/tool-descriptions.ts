/**
 * What the model is told about each tool: its prompt in the text protocol's shape (with the parameter section made
 * from its schema), and its native definition (prose without the heading and `Action:` examples, plus the schema).
 */
import type { ToolSpec } from '../../providers/types.js';
import type { ToolDefinition } from './define-tool.js';
import { PARAMETERS_PLACEHOLDER, withParameters } from './parameter-docs.js';
import { loadToolPrompt } from './prompt-files.js';

/**
 * A tool prompt as native tool prose: no leading heading, no `Action: Tool[…]` example lines of the text protocol,
 * no parameter section (the input schema carries each field's description).
 */
export function nativeDescription(prompt: string): string {
  return prompt
    .replace(/^#{1,6}\s.*\n+/, '')
    .replace(`${PARAMETERS_PLACEHOLDER}\n`, '')
    .split('\n')
    .filter((line) => !/^\s*Action:/.test(line))
    .join('\n')
    .replace(/\n*Examples?:\s*$/i, '')
    .trim();
}

/**
 * A tool's prompt in the text protocol's shape: its prompt file, or its description under a heading with the
 * parameter section after it (the native definition drops both again).
 */
function promptOf(tool: ToolDefinition): string {
  const { description } = tool;
  if ('promptFile' in description) return loadToolPrompt(description.promptFile);
  return `## ${tool.name}\n${description.text.trim()}\n\n${PARAMETERS_PLACEHOLDER}\n`;
}

/** Each tool's prompt: its prose from prompts/tools/<file> with the parameter section generated from its schema. */
export function toolPrompts(tools: readonly ToolDefinition[]): Array<{ name: string; prompt: string }> {
  return tools.map((tool) => ({ name: tool.name, prompt: withParameters(promptOf(tool), tool.input.jsonSchema) }));
}

/** The native `tools` definitions (for the built-in tools the JSON Schema is computed by the build). */
export function toolSpecs(tools: readonly ToolDefinition[]): ToolSpec[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: nativeDescription(promptOf(tool)),
    inputSchema: tool.input.jsonSchema,
  }));
}

/**
 * The Agent tool (`Agent{subagent_type, description, prompt}`, Claude Code's; its older name `Task` is an alias
 * (ToolDefinition.aliases): a call named `Task` runs it, and tool lists, permission rules and hook matchers
 * written with `Task` mean it): delegates a task to a subagent that works in a context of its own and answers
 * once. It declares no permission of its own (it changes nothing itself, so several Agent calls of one reply run
 * concurrently); the subagent's every call passes the session's decision point (subagent-tools.ts), and
 * `Agent(name)` deny and ask rules apply to the call itself.
 *
 * History keeps the answer, the files the subagent read (the facts ledger names the subagent with them) and the
 * transcript's path; the full result stays stored for Recall; the subagent's steps stay out of the parent's context.
 */
import { defineTool, jsonSchemaInput, type FileTouch, type ToolDefinition } from '../tools/registry/define-tool.js';
import { errorEnvelope } from '../tools/registry/envelope.js';
import { clip, isRecord, isString } from '../text/json-guards.js';
import type { AgentDefinition } from './agent-definition.js';
import type { SubagentHost } from './subagent-run.js';
import { AGENT_TOOL, AGENT_TOOL_ALIAS } from './subagent-tools.js';

/** History keeps this much of a subagent's answer (the whole result is stored for Recall). */
export const COMPRESSED_ANSWER_CHARS = 6_000;
/** The subagent listing in the tool's description stays within about 2,000 tokens. */
export const AGENT_LISTING_CHARS = 6_000;

/**
 * The subagents as the tool's description lists them, within AGENT_LISTING_CHARS (descriptions cut to 250
 * characters; what does not fit is listed by name, and the rest counted), so many or long definitions cannot
 * crowd every request.
 */
function agentList(agents: ReadonlyMap<string, AgentDefinition>): string {
  const lines: string[] = [];
  let used = 0;
  const all = [...agents.values()];
  let index = 0;
  for (; index < all.length; index += 1) {
    const agent = all[index] as AgentDefinition;
    const tools = agent.tools === undefined ? 'all tools' : agent.tools.join(', ') || 'no tools';
    const line = `- ${agent.name}: ${clip(agent.description.replace(/\s+/g, ' '), 250)} (Tools: ${clip(tools, 120)})`;
    if (used + line.length > AGENT_LISTING_CHARS) break;
    lines.push(line);
    used += line.length + 1;
  }
  const rest = all.slice(index).map((agent) => agent.name);
  const named: string[] = [];
  for (const name of rest) {
    if (used + name.length + 2 > AGENT_LISTING_CHARS + 1_000) break;
    named.push(name);
    used += name.length + 2;
  }
  if (named.length > 0) lines.push(`- More subagent types (by name): ${named.join(', ')}`);
  if (rest.length > named.length) lines.push(`- (${rest.length - named.length} more are not listed)`);
  return lines.join('\n');
}

/** The Agent tool's description over `agents` (host-agents.ts renews it when the SDK host adds some). */
export function descriptionOf(agents: ReadonlyMap<string, AgentDefinition>): string {
  return [
    'Launch a subagent to handle a task on its own: it works in a separate context with its own tools and',
    'returns one final answer, so searches and other noisy work do not fill your context. Give it a short',
    '`description` (3-5 words) and a `prompt` that says exactly what to do and what to report back; it does not see',
    'this conversation. To run several subagents at once, make several Agent calls in one reply.',
    '',
    'Available subagent types (`subagent_type`):',
    agentList(agents),
  ].join('\n');
}

function filesOf(data: Record<string, unknown>): string[] {
  return Array.isArray(data.files_read) ? data.files_read.filter(isString) : [];
}

/** The Agent tool over `agents` (the definitions loaded at start) and the runtime's `host`. */
export function createAgentTool(agents: ReadonlyMap<string, AgentDefinition>, host: SubagentHost): ToolDefinition {
  return defineTool({
    name: AGENT_TOOL,
    aliases: [AGENT_TOOL_ALIAS],
    description: descriptionOf(agents),
    inputSchema: jsonSchemaInput({
      type: 'object',
      properties: {
        description: { type: 'string', description: 'A short (3-5 word) description of the task' },
        prompt: { type: 'string', description: 'The task for the subagent to perform' },
        subagent_type: { type: 'string', description: 'The type of subagent to use for this task' },
      },
      required: ['description', 'prompt', 'subagent_type'],
      additionalProperties: false,
    }),
    permission: 'none',
    kind: 'think',
    compress: (data) =>
      isString(data.agent) && isString(data.answer)
        ? {
            agent: data.agent,
            description: data.description,
            answer: clip(data.answer, COMPRESSED_ANSWER_CHARS),
            end: data.end,
            steps: data.steps,
            files_read: filesOf(data),
            transcript: data.transcript,
          }
        : undefined,
    shrink: (data) =>
      isString(data.agent) && isString(data.answer)
        ? `subagent ${data.agent}: ${clip(data.answer.split('\n')[0] ?? '', 120)}`
        : undefined,
    locations: (_input, data): FileTouch[] =>
      isString(data.agent)
        ? filesOf(data).map((path) => ({ path: `${path} (found by subagent ${String(data.agent)})`, kind: 'read' }))
        : [],
    display: {
      title: (input) =>
        `${isString(input.subagent_type) ? input.subagent_type : '?'}: ${isString(input.description) ? input.description : ''}`,
      summary: (data) => `Done (${typeof data.steps === 'number' ? data.steps : 0} steps)`,
    },
    async run(input, ctx) {
      const fields = isRecord(input) ? input : {};
      const type = isString(fields.subagent_type) ? fields.subagent_type : '';
      const definition = agents.get(type);
      if (!definition) {
        return errorEnvelope(
          'INVALID_PARAM',
          `No subagent type "${type}". Available: ${[...agents.keys()].join(', ')}.`,
        );
      }
      const { gate } = ctx;
      if (!gate) return errorEnvelope('INTERNAL_ERROR', 'Agent was called without a decision point for its calls.');
      const description = isString(fields.description) ? fields.description : '';
      const prompt = isString(fields.prompt) ? fields.prompt : '';
      // The subagent's loop loads on the first delegation, not with the tool list.
      const { runSubagent } = await import('./subagent-run.js');
      return await runSubagent(host, { definition, description, prompt }, ctx, gate);
    },
  });
}

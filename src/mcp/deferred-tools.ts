/**
 * MCP tools loaded on demand. While the MCP tools' definitions fit in `budgetTokens` (10% of the context window)
 * each is registered at once, so every request lists it. Past that, further tools wait here and one `ToolSearch`
 * tool is registered instead: the model searches by words (or `select:<name>`), the matches are registered, and
 * the next request carries them. The context engine counts a tool only once it is registered (the `tools` array it
 * measures), so waiting tools cost nothing but ToolSearch's own definition.
 */
import { defineTool, jsonSchemaInput, type JsonRecord, type ToolDefinition } from '../tools/registry/define-tool.js';
import { errorEnvelope, successEnvelope } from '../tools/registry/envelope.js';
import type { ToolSink } from './limits.js';

export const TOOL_SEARCH = 'ToolSearch';
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

function textOf(tool: ToolDefinition): string {
  return 'text' in tool.description ? tool.description.text : '';
}

/** mca's estimate: 3 characters per token of the definition as the request carries it. */
export function definitionTokens(tool: ToolDefinition): number {
  return Math.ceil(
    JSON.stringify({ name: tool.name, description: textOf(tool), input_schema: tool.input.jsonSchema }).length / 3,
  );
}

export class DeferredTools {
  private readonly waiting = new Map<string, ToolDefinition>();
  private readonly loaded = new Map<string, number>();
  private searchRegistered = false;

  constructor(
    private readonly registry: ToolSink,
    private readonly budgetTokens: number,
  ) {}

  /** Names in use: registered tools and waiting ones (a new tool's name must differ from both). */
  names(): string[] {
    return [...this.registry.names(), ...this.waiting.keys()];
  }

  add(tool: ToolDefinition): void {
    const tokens = definitionTokens(tool);
    const used = [...this.loaded.values()].reduce((sum, value) => sum + value, 0);
    if (this.waiting.size === 0 && used + tokens <= this.budgetTokens) {
      this.registry.register(tool);
      this.loaded.set(tool.name, tokens);
      return;
    }
    this.waiting.set(tool.name, tool);
    if (!this.searchRegistered) {
      this.registry.register(this.searchTool());
      this.searchRegistered = true;
    }
  }

  remove(name: string): void {
    if (this.waiting.delete(name)) return;
    this.loaded.delete(name);
    this.registry.unregister(name);
  }

  /** Registers the waiting tools matching `query` (every word in the name or description, or `select:<name>`). */
  activate(query: string, limit: number): ToolDefinition[] {
    const selected = /^select:(.+)$/
      .exec(query.trim())?.[1]
      ?.split(',')
      .map((name) => name.trim());
    const words = query
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word !== '');
    const matches = [...this.waiting.values()].filter((tool) => {
      if (selected) return selected.includes(tool.name);
      const haystack = `${tool.name} ${textOf(tool)}`.toLowerCase();
      return words.length > 0 && words.every((word) => haystack.includes(word));
    });
    const chosen = matches.slice(0, limit);
    for (const tool of chosen) {
      this.waiting.delete(tool.name);
      this.registry.register(tool);
      this.loaded.set(tool.name, definitionTokens(tool));
    }
    return chosen;
  }

  waitingCount(): number {
    return this.waiting.size;
  }

  private searchTool(): ToolDefinition {
    const tool = defineTool({
      name: TOOL_SEARCH,
      description:
        'Finds MCP tools that are not loaded yet (there are too many to list up front) and loads them: give words ' +
        'from the task (e.g. "github issue") or "select:<exact tool name>". The tools found can be called from ' +
        'the next step on.',
      inputSchema: jsonSchemaInput({
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for in tool names and descriptions, or select:<name>' },
          limit: { type: 'number', description: `How many tools to load at most (default ${DEFAULT_LIMIT})` },
        },
        required: ['query'],
      }),
      permission: 'none',
      kind: 'search',
      run: (input: JsonRecord) => {
        const query = typeof input.query === 'string' ? input.query : '';
        const limit = Math.min(
          MAX_LIMIT,
          Math.max(1, typeof input.limit === 'number' ? Math.floor(input.limit) : DEFAULT_LIMIT),
        );
        const found = this.activate(query, limit);
        if (found.length === 0) {
          return Promise.resolve(
            errorEnvelope('NOT_FOUND', `No MCP tool matches "${query}" (${this.waiting.size} not loaded yet).`),
          );
        }
        const lines = found.map((tool) => `- ${tool.name}: ${textOf(tool).split('\n')[0] ?? ''}`);
        const text = `Loaded ${found.length} tool(s), callable from the next step:\n${lines.join('\n')}`;
        return Promise.resolve(successEnvelope({ loaded: found.map((tool) => tool.name) }, text));
      },
    });
    return tool as unknown as ToolDefinition;
  }
}

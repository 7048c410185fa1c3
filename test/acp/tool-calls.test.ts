/**
 * What an editor sees of a call (src/acp/tool-calls.ts): every built-in tool says its kind in its definition, an
 * MCP tool is `read` only when its server marks it read-only, edits become ACP diffs, TodoWrite a plan.
 */
import { describe, expect, it } from 'vitest';
import { mcpToolDefinition } from '../../src/mcp/mcp-tool.js';
import { builtinTools } from '../../src/tools/registry/builtin-tools.js';
import { editDiffs, planEntries, toolLocations, toolTitle } from '../../src/acp/tool-calls.js';

const KINDS: Record<string, string> = {
  Read: 'read',
  Write: 'edit',
  Edit: 'edit',
  MultiEdit: 'edit',
  Grep: 'search',
  Glob: 'search',
  LS: 'search',
  Bash: 'execute',
  TaskOutput: 'read',
  TaskStop: 'execute',
  WebFetch: 'fetch',
  TodoWrite: 'think',
  ExitPlanMode: 'think',
  Recall: 'read',
};

function mcpTool(readOnlyHint: boolean | undefined) {
  const built = mcpToolDefinition({
    name: 'mcp__srv__look',
    server: 'srv',
    tool: {
      name: 'look',
      inputSchema: { type: 'object' },
      ...(readOnlyHint === undefined ? {} : { annotations: { readOnlyHint } }),
    },
    limits: { connectTimeoutMs: 1000, toolTimeoutMs: 1000, maxOutputTokens: 1000 },
    timeoutMs: 1000,
    connection: () => undefined,
  });
  if (!built.ok) throw new Error(built.message);
  return built.tool;
}

describe('tool kinds and ACP call content', () => {
  it('every built-in tool declares the kind an editor shows', () => {
    const kinds = Object.fromEntries(builtinTools().map((tool) => [tool.name, tool.kind]));
    expect(kinds).toEqual(KINDS);
  });

  it('an MCP tool is read only when its server says readOnlyHint, else other', () => {
    expect(mcpTool(true).kind).toBe('read');
    expect(mcpTool(false).kind).toBe('other');
    expect(mcpTool(undefined).kind).toBe('other');
  });

  it('edits are diffs at absolute paths; Read names its line; TodoWrite is a plan without cancelled items', () => {
    const named = (name: string) => builtinTools().find((tool) => tool.name === name);
    const edit = named('Edit');
    expect(toolTitle('Edit', edit, { path: 'src/a.ts', old_string: 'a', new_string: 'b' })).toBe('Edit src/a.ts');
    expect(
      editDiffs('/p', named('MultiEdit'), { path: 'a.ts', edits: [{ old_string: 'x', new_string: 'y' }] }),
    ).toEqual([{ type: 'diff', path: '/p/a.ts', oldText: 'x', newText: 'y' }]);
    expect(editDiffs('/p', named('Write'), { path: 'n.ts', content: 'new' })).toEqual([
      { type: 'diff', path: '/p/n.ts', oldText: null, newText: 'new' },
    ]);
    expect(toolLocations('/p', named('Read'), { path: 'a.ts', start_line: 40 })).toEqual([
      { path: '/p/a.ts', line: 40 },
    ]);
    expect(
      planEntries(named('TodoWrite'), {
        todos: [
          { content: 'one', status: 'completed' },
          { content: 'two', status: 'cancelled' },
        ],
      }),
    ).toEqual([{ content: 'one', status: 'completed', priority: 'medium' }]);
  });
});

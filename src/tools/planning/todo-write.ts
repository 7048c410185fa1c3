import { builtinInput } from '../input/builtin-input.js';
import { defineTool } from '../registry/define-tool.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { toolResult } from '../registry/results.js';
import { todoRecap } from './todo-store.js';
import type { TodoItem, TodoWriteData } from '../registry/tool-data.js';
import { clip, isRecord, isString } from '../../text/json-guards.js';
import type { ToolMembers } from '../registry/define-tool.js';
import { COMPRESSION_LIMITS as LIMIT, plural, stringField } from '../registry/result-forms.js';

const MARKS: Record<TodoItem['status'], string> = {
  pending: '[ ]',
  in_progress: '[>]',
  completed: '[x]',
  cancelled: '[-]',
};

/** What history and the transcript make of a TodoWrite result: its recap line. */
const todoWriteMembers: ToolMembers = {
  compress: (data) => (isString(data.recap) ? { recap: clip(data.recap, LIMIT.recapChars) } : undefined),
  shrink: (data) => (isString(data.recap) ? `todos ${data.recap}` : undefined),
  display: {
    title: (input) => (Array.isArray(input.todos) ? plural(input.todos.length, 'todo') : ''),
    summary: (data) => stringField(data, 'recap') ?? 'Todos updated',
    plan: (input) =>
      Array.isArray(input.todos)
        ? input.todos.flatMap((todo: unknown) =>
            isRecord(todo) && isString(todo.content) && isString(todo.status)
              ? [{ content: todo.content, status: todo.status }]
              : [],
          )
        : undefined,
  },
};

export const todoWriteTool = defineTool({
  name: 'TodoWrite',
  promptFile: 'TodoWrite.md',
  inputSchema: builtinInput('TodoWrite'),
  // Changes only the session's todo list, never the project; needs no approval.
  permission: 'none',
  kind: 'think',
  ...todoWriteMembers,
  async run(input, ctx): Promise<ToolEnvelope> {
    const active = input.todos.filter((todo) => todo.status === 'in_progress');
    if (active.length > 1) {
      return errorEnvelope(
        'INVALID_PARAM',
        `Only one todo may be in_progress at a time; got ${active.length} (${active.map((todo) => JSON.stringify(todo.content)).join(', ')}). Mark the others pending or completed.`,
      );
    }
    const todos: TodoItem[] = input.todos.map((todo) => ({ content: todo.content, status: todo.status }));
    ctx.todos.set(todos);
    const recap = todoRecap(todos) ?? 'no todos';
    const data: TodoWriteData = { todos, recap };
    const lines = [`Todos updated: ${recap}`, ...todos.map((todo) => `${MARKS[todo.status]} ${todo.content}`)];
    return toolResult(data, lines.join('\n'), { stats: { todos: todos.length }, context: { count: todos.length } });
  },
});

import { Box, Text } from 'ink';
import React from 'react';
import type { TodoItem, TodoStatus } from '../../tools/registry/tool-data.js';

const MARKS: Record<TodoStatus, { mark: string; color?: string; dim?: boolean }> = {
  pending: { mark: '☐' },
  in_progress: { mark: '▶', color: 'cyan' },
  completed: { mark: '☑', color: 'green', dim: true },
  cancelled: { mark: '☒', dim: true },
};

/** `/todos`: the agent's todo list. */
export function TodoList({ todos, width }: { todos: readonly TodoItem[]; width: number }): React.JSX.Element {
  if (todos.length === 0) return <Text dimColor>No todos.</Text>;
  const done = todos.filter((todo) => todo.status === 'completed').length;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>
        Todos [{done}/{todos.length}]
      </Text>
      {todos.map((todo, index) => {
        const style = MARKS[todo.status];
        return (
          <Text
            key={index}
            color={style.color}
            dimColor={style.dim}
            strikethrough={todo.status === 'cancelled'}
            wrap="truncate-end"
          >
            {'  '}
            {style.mark} {todo.content}
          </Text>
        );
      })}
    </Box>
  );
}

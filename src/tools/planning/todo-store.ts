import type { TodoItem } from '../registry/tool-data.js';

/** Renders a one-line recap: `[2/5] done · now: <in-progress item>`; undefined when there are no todos. */
export function todoRecap(todos: readonly TodoItem[]): string | undefined {
  if (todos.length === 0) return undefined;
  const counted = todos.filter((todo) => todo.status !== 'cancelled');
  const done = counted.filter((todo) => todo.status === 'completed').length;
  const current = todos.find((todo) => todo.status === 'in_progress');
  const next = todos.find((todo) => todo.status === 'pending');
  const tail = current ? `now: ${current.content}` : next ? `next: ${next.content}` : 'all done';
  return `[${done}/${counted.length}] done · ${tail}`;
}

/** The session's todo list. TodoWrite replaces it whole; the ContextBuilder renders its recap. */
export class TodoStore {
  private items: TodoItem[] = [];

  list(): readonly TodoItem[] {
    return this.items;
  }

  set(items: readonly TodoItem[]): void {
    this.items = items.map((item) => ({ ...item }));
  }

  recap(): string | undefined {
    return todoRecap(this.items);
  }
}

/**
 * Ctrl+R in the prompt: reverse search of the input history, as in a shell and Claude Code. Typing narrows the
 * query and shows the newest entry containing it; Ctrl+R again goes to the next older one; Enter or → takes the
 * entry into the input box to edit or send; Esc or Ctrl+G gives back what was typed before the search.
 */
import { replaceText, type InputState } from './input-state.js';

export interface HistorySearch {
  query: string;
  /** Index into the history of the entry shown, or null when none contains the query. */
  match: number | null;
}

/** The newest entry before `before` that contains `query` (case-insensitive), or null. */
export function findOlder(history: readonly string[], query: string, before: number): number | null {
  const wanted = query.toLowerCase();
  for (let index = Math.min(before, history.length) - 1; index >= 0; index -= 1) {
    if ((history[index] ?? '').toLowerCase().includes(wanted)) return index;
  }
  return null;
}

export function startSearch(history: readonly string[]): HistorySearch {
  return { query: '', match: history.length > 0 ? history.length - 1 : null };
}

/** The query grew or shrank: search again from the newest entry. */
export function withQuery(history: readonly string[], query: string): HistorySearch {
  return { query, match: findOlder(history, query, history.length) };
}

/** Ctrl+R again: the next older entry with the query (stays put when there is none). */
export function olderMatch(history: readonly string[], search: HistorySearch): HistorySearch {
  if (search.match === null) return search;
  const older = findOlder(history, search.query, search.match);
  return older === null ? search : { ...search, match: older };
}

/** Enter: the matched entry becomes the input's text (the input is unchanged when nothing matched). */
export function acceptSearch(state: InputState, search: HistorySearch): InputState {
  if (search.match === null) return state;
  return replaceText(state, state.history[search.match] ?? '');
}

/** The line the input box shows while searching. */
export function searchLine(history: readonly string[], search: HistorySearch): string {
  const found = search.match === null ? (search.query === '' ? '' : 'no match') : (history[search.match] ?? '');
  return `reverse search: ${search.query}_ · ${found.split('\n')[0] ?? ''}`;
}

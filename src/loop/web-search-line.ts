/** The one line a front end shows for a web search the provider ran (REPL notice, `-p` stderr). */
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import type { AgentEvent } from './events.js';

export function webSearchLine(event: Extract<AgentEvent, { type: 'web_search' }>): string {
  const query = neutralizeControlSequences(event.query) || '(no query)';
  if (event.error) return `searched: ${query} (failed: ${neutralizeControlSequences(event.error)})`;
  return `searched: ${query} (${event.results} ${event.results === 1 ? 'result' : 'results'})`;
}

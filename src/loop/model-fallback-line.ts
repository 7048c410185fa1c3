/** The one line a front end shows when a call moved to a fallback model (REPL notice, `-p` stderr). */
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import type { AgentEvent } from './events.js';

export function modelFallbackLine(event: Extract<AgentEvent, { type: 'model_fallback' }>): string {
  // The reason is the server's text (one line already); its escape sequences are shown, never acted on.
  const reason = neutralizeControlSequences(event.reason).replace(/[.\s]+$/, '');
  return `${event.from} could not answer (${reason}); switched to the fallback model ${event.to} for the rest of the session`;
}

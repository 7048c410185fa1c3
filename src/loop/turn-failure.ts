/**
 * How a turn that threw ends (issue 10, "a turn always ends cleanly"): whatever the error, the open round is closed
 * as `error` in memory (the history appends before it notifies the session writer, so even a second failing
 * write cannot leave it open), and exactly one `turn_end` carries a code and one line for the user.
 */
import type { ContextEngine } from '../context/context-engine.js';
import { ZERO_USAGE } from '../providers/types.js';
import type { AgentEvent } from './events.js';
import type { TurnState } from './turn-state.js';
import { describeFailure, UnsavedAnswerError } from './unsaved-answer.js';

export { describeFailure } from './unsaved-answer.js';

export function* failTurn(context: ContextEngine, turn: TurnState | undefined, error: unknown): Generator<AgentEvent> {
  const failure = describeFailure(error);
  const message = `The turn failed: ${failure.message}`;
  try {
    context.closeTurn('error', message);
  } catch {
    // The closing message is in memory (append pushes before it notifies); only its write failed again.
  }
  yield {
    type: 'turn_end',
    reason: 'error',
    answer: message,
    steps: turn?.steps ?? 0,
    usage: turn?.usage ?? { ...ZERO_USAGE },
    error: { code: failure.code, message },
    ...(error instanceof UnsavedAnswerError ? { unsavedAnswer: error.answer } : {}),
  };
}

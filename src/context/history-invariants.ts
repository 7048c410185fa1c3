/**
 * The shape every history must keep (DESIGN.md "Compaction"; checked after each compaction and by the property
 * test): summaries first and in order; rounds in increasing order after the last summary; each round starts with
 * its user message; every tool message directly follows an assistant message of its round; only the newest round
 * may be open.
 */
import { toRounds, type Message } from './message.js';

/** Every violated rule, as readable lines; empty for a valid history. */
export function historyViolations(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  let seenNonSummary = false;
  let lastCovered = 0;
  messages.forEach((message, index) => {
    if (message.role !== 'summary') {
      seenNonSummary = true;
      return;
    }
    if (seenNonSummary) problems.push(`summary at #${index} follows conversation messages`);
    const covers = message.metadata.coversRounds;
    if (covers !== undefined) {
      if (covers[0] > covers[1]) problems.push(`summary at #${index} covers an empty range`);
      if (covers[0] <= lastCovered) problems.push(`summary at #${index} overlaps or precedes an earlier one`);
      lastCovered = Math.max(lastCovered, covers[1]);
    }
  });

  const rounds = toRounds(messages);
  let previousRound = lastCovered;
  rounds.forEach((round, index) => {
    const first = round.messages[0];
    if (first?.role !== 'user') problems.push(`round ${round.round} does not start with a user message`);
    if (round.round <= previousRound) problems.push(`round ${round.round} is not after round ${previousRound}`);
    previousRound = Math.max(previousRound, round.round);
    if (!round.closed && index !== rounds.length - 1) problems.push(`round ${round.round} is open but not newest`);
    round.messages.forEach((message, position) => {
      if (message.metadata.round !== round.round) {
        problems.push(`a ${message.role} message numbered ${message.metadata.round} sits in round ${round.round}`);
      }
      if (message.role !== 'tool') return;
      const before = round.messages[position - 1];
      if (before?.role !== 'assistant') {
        problems.push(`a tool message in round ${round.round} does not follow an assistant message`);
      }
    });
  });
  return problems;
}

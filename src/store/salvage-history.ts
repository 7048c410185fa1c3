/**
 * Turns whatever a session file yielded into a history that keeps every invariant (history-invariants.ts), so a
 * damaged file never refuses the whole session: a record out of place (a flipped byte that still parses, a
 * duplicated line, a lost line) is dropped, a round it breaks is closed as damaged, and a round left open by a
 * process that died is closed as crashed, not as interrupted by the user.
 */
import type { Message } from '../context/message.js';

export const DAMAGED_ROUND_TEXT =
  '(This round was damaged in the session file; the part that could be read is kept above.)';
export const CRASHED_ROUND_TEXT =
  '(The turn ended unexpectedly: mca stopped (a crash, a kill or a power loss) before it finished.)';

export interface Salvaged {
  messages: Message[];
  /** Records dropped because they did not fit where they were. */
  dropped: number;
  /** Rounds closed because records of theirs were missing or out of place. */
  damagedRounds: number[];
  /** The round closed because its process died mid-turn, if any. */
  crashedRound: number | undefined;
  /** True when the repair changed more than the end: the file needs a snapshot of `messages`. */
  rewritten: boolean;
}

function closing(round: number, messages: readonly Message[], text: string): Message {
  const steps = messages.filter((message) => message.metadata.round === round).map((m) => m.metadata.step ?? 0);
  return {
    role: 'assistant',
    content: text,
    metadata: { round, step: Math.max(0, ...steps) + 1, ts: new Date().toISOString(), roundEnd: 'error' },
  };
}

export function salvageHistory(input: readonly Message[]): Salvaged {
  const out: Message[] = [];
  const damaged = new Set<number>();
  let dropped = 0;
  let lastCovered = 0;
  let previousRound = 0;
  let open: number | undefined;
  let previousJson = '';
  let insertedInMiddle = false;
  const drop = (): void => {
    dropped += 1;
    if (open !== undefined) damaged.add(open);
  };
  const closeDamaged = (): void => {
    if (open === undefined) return;
    out.push(closing(open, out, DAMAGED_ROUND_TEXT));
    damaged.add(open);
    insertedInMiddle = true;
    open = undefined;
  };
  for (const message of input) {
    const json = JSON.stringify(message);
    if (json === previousJson) {
      dropped += 1; // a duplicated line
      continue;
    }
    previousJson = json;
    const { round, roundEnd, coversRounds } = message.metadata;
    if (message.role === 'summary') {
      const fits =
        out.every((kept) => kept.role === 'summary') &&
        (coversRounds === undefined || (coversRounds[0] <= coversRounds[1] && coversRounds[0] > lastCovered));
      if (!fits) {
        drop();
        continue;
      }
      lastCovered = Math.max(lastCovered, coversRounds?.[1] ?? 0);
      out.push(message);
      continue;
    }
    if (message.role === 'user') {
      if (round <= Math.max(previousRound, lastCovered)) {
        drop();
        continue;
      }
      if (open !== undefined) closeDamaged();
      out.push(message);
      previousRound = round;
      open = roundEnd === undefined ? round : undefined;
      continue;
    }
    const last = out[out.length - 1];
    if (open === undefined || round !== open || (message.role === 'tool' && last?.role !== 'assistant')) {
      drop();
      continue;
    }
    out.push(message);
    if (roundEnd !== undefined) open = undefined;
  }
  let crashedRound: number | undefined;
  if (open !== undefined) {
    if (damaged.has(open)) out.push(closing(open, out, DAMAGED_ROUND_TEXT));
    else {
      crashedRound = open;
      out.push(closing(open, out, CRASHED_ROUND_TEXT));
    }
  }
  return {
    messages: out,
    dropped,
    damagedRounds: [...damaged].sort((a, b) => a - b),
    crashedRound,
    rewritten: dropped > 0 || insertedInMiddle,
  };
}

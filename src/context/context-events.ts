/**
 * What the context engine reports while it works (compactions and degradations). These are also AgentEvents
 * (src/loop/events.ts includes them unchanged), so the loop passes them on as they are and the bench counts them.
 */
import type { CompactionOutcome } from './history-manager.js';

export type { CompactionOutcome } from './history-manager.js';

export type CompactionReason = 'threshold' | 'manual' | 'emergency';

export type CompactionStartEvent = {
  type: 'compaction_start';
  reason: CompactionReason;
  tokensBefore: number;
  roundsToArchive: number;
};

export type CompactionEndEvent = {
  type: 'compaction_end';
  reason: CompactionReason;
  outcome: CompactionOutcome;
  tokensBefore: number;
  tokensAfter: number;
  roundsKept: number;
  roundsArchived: number;
  /** Exact user-facing line for timeout/failure (spec E2), absent on success. */
  message?: string;
};

/** A rung of a degradation ladder was climbed: 1 = in-turn ladder, 2 = older tool results shrunk, 3 = rounds dropped. */
export type DegradeEvent = { type: 'degrade'; level: 1 | 2 | 3; message: string };

/** Events of preparing a step or compacting. */
export type ContextEvent = CompactionStartEvent | CompactionEndEvent | DegradeEvent;

/**
 * The first event of `ContextEngine.beginTurn`: the user message is in history (and was handed to the append
 * listeners); the caller persists and announces the turn here, before any compaction can start.
 */
export type TurnOpenedEvent = { type: 'turn_opened'; round: number };

/**
 * What engine v4 keeps beside the history so that nothing is forgotten without pressure (DESIGN.md "Turn and round",
 * "Tool memory and archive"):
 *  - the full tool results by reference, as the model first saw them (filled as results arrive; a resumed session
 *    reads them once from tool memory), so a whole result renders in full; a bounded copy (full-result-cache.ts):
 *    an evicted one is read back from tool memory;
 *  - the live rounds: each round closed since the last compaction, as its turn was sent (text blocks, or native
 *    messages), by its user message, so the next request starts with the previous one (the cached prefix only grows,
 *    each byte is written to the cache once). A compaction that rewrites history clears them: from then on those
 *    rounds show as transcript, in the forms the compaction decided.
 */
import type { TurnMessage } from '../providers/types.js';
import type { ToolMemory } from '../tools/memory/tool-memory.js';
import { forgetFullForms, type BuiltContext, type LiveRound, type ScratchpadStep } from './context-builder.js';
import type { HistoryManager } from './history-manager.js';
import type { Message } from './message.js';
import { FullResultCache } from './full-result-cache.js';
import { settledTurn, turnMessageText } from './native-turn.js';
import type { FullResults, TranscriptForm } from './transcript.js';

export class LiveRounds {
  /** null marks a reference tool memory does not know (asked once while cached). */
  private readonly fullTexts: FullResultCache;
  private readonly rounds = new Map<Message, LiveRound>();
  /** The turn's scratchpad whose first `releasedSteps` steps hold their full text no more (`releaseShrunk`). */
  private releasedOf: readonly ScratchpadStep[] | undefined;
  private releasedSteps = 0;
  /** This turn's user message, until its round is settled. */
  private turnUser: Message | undefined;
  readonly fullResults: FullResults;

  /** `cacheChars`: the bound of the in-process copy of full results (full-result-cache.ts). */
  constructor(toolMemory: ToolMemory | undefined, cacheChars?: number) {
    this.fullTexts = new FullResultCache(cacheChars);
    this.fullResults = {
      get: (ref) => {
        const known = this.fullTexts.get(ref);
        if (known !== undefined) return known ?? undefined;
        const recalled = toolMemory?.recall(ref);
        this.fullTexts.set(ref, recalled ?? null);
        return recalled;
      },
    };
  }

  /** A full result as the model saw it, under the reference tool memory gave it. */
  remember(ref: string, full: string): void {
    this.fullTexts.set(ref, full);
  }

  /**
   * The turn's first `shrunkSteps` steps show a shorter form for the rest of the turn (the in-turn ladder only
   * tightens): each one's full text is then held by tool memory alone (issue 42: a long turn held every result
   * twice, the full text here and in the cache, the compressed form in history). The step still answers
   * `observation` with the same text, read back by reference (a measure of the whole turn at full size needs it).
   * A step without a reference keeps its text.
   */
  releaseShrunk(steps: readonly ScratchpadStep[], shrunkSteps: number): void {
    if (this.releasedOf !== steps) {
      this.releasedOf = steps;
      this.releasedSteps = 0;
    }
    const end = Math.min(shrunkSteps, steps.length);
    for (; this.releasedSteps < end; this.releasedSteps += 1) {
      const step = steps[this.releasedSteps] as ScratchpadStep;
      const ref = step.ref;
      if (ref === undefined || step.observation === undefined) continue;
      forgetFullForms(step);
      this.fullTexts.delete(ref);
      Object.defineProperty(step, 'observation', {
        get: () => this.fullResults.get(ref),
        enumerable: false,
        configurable: true,
      });
    }
  }

  /** The current turn's user message: its round settles once it has closed. */
  opened(user: Message): void {
    this.turnUser = user;
  }

  /** Forgets the live rounds (after a compaction rewrote history, or when a request must start anew). */
  clear(): void {
    this.rounds.clear();
  }

  /** The live rounds a build shows, or undefined when there are none. */
  get shown(): ReadonlyMap<Message, LiveRound> | undefined {
    return this.rounds.size > 0 ? this.rounds : undefined;
  }

  /**
   * Once the current turn's round has closed, keeps it as it was sent: `sent()` builds the turn alone at its final
   * ladder state (its request block and steps, as every request of the turn showed them), then the closing reply.
   */
  settle(history: Pick<HistoryManager, 'openRound' | 'closedHistory'>, form: TranscriptForm, sent: () => BuiltContext) {
    const user = this.turnUser;
    if (user === undefined || history.openRound()?.messages[0] === user) return;
    this.turnUser = undefined;
    const closed = history.closedHistory();
    let closing: Message | undefined;
    for (let index = closed.length - 1; index >= 0; index -= 1) {
      const message = closed[index] as Message;
      if (message === user) break;
      if (message.metadata.roundEnd !== undefined && message.metadata.round === user.metadata.round) closing = message;
    }
    // A round no longer in history (rewound, archived) is not shown.
    if (closing === undefined) return;
    const built = sent();
    const input = built.parts.find((part) => part.id === 'input')?.text;
    if (input === undefined) return;
    if (form === 'native') {
      const reply: TurnMessage = { role: 'assistant', text: closing.content, calls: [] };
      const turn = [...settledTurn(built.toNativeRequest().turn), reply];
      this.rounds.set(user, { segments: [input, ...turn.map(turnMessageText)], native: { question: input, turn } });
      return;
    }
    const steps = built.parts.find((part) => part.id === 'scratchpad')?.segments ?? [];
    this.rounds.set(user, { segments: [input, ...steps, closing.content] });
  }
}

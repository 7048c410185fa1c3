import { describe, expect, it } from 'vitest';
import { ARCHIVE_INDEX_HEADING, ARCHIVE_SHARE, boundArchive } from '../../src/context/archive-bound.js';
import { summaryWithLedger } from '../../src/context/facts-ledger.js';
import type { Message } from '../../src/context/message.js';
import { InMemoryToolMemory } from '../../src/tools/memory/tool-memory.js';
import { closedRound, summary } from './history-fixtures.js';

function entry(first: number, last: number, size: number): Message {
  const rounds = [first, last].flatMap((round) => closedRound(round));
  return summary(first, last, summaryWithLedger(`## 📌 Archived Session Summary\n${'s'.repeat(size)}`, rounds));
}

describe('bounded archive', () => {
  it('folds the oldest entries into one index with refs once they pass the share of the budget', () => {
    const entries = [entry(1, 2, 3_000), entry(3, 4, 3_000), entry(5, 6, 3_000), entry(7, 8, 3_000)];
    const rest = closedRound(9);
    const memory = new InMemoryToolMemory();
    const budget = 16_000; // archive share: 4,000 tokens; the four entries take ≈ 4,400
    expect(ARCHIVE_SHARE).toBe(0.25);
    const { messages, folded } = boundArchive([...entries, ...rest], budget, memory);
    expect(folded).toBe(1);
    const index = messages[0];
    expect(index?.content.startsWith(ARCHIVE_INDEX_HEADING)).toBe(true);
    expect(index?.metadata.coversRounds).toEqual([1, 2]);
    const ref = /Recall\{"ref":"(r[0-9a-f]{12})"\}/.exec(index?.content ?? '')?.[1] ?? '';
    // The entry left whole: Recall gives back exactly what the prompt held.
    expect(memory.recall(ref)).toBe(entries[0]?.content);
    expect(index?.content).toContain('- Rounds 1–2 · ');
    expect(index?.content).toContain('- Requests: R1 "question 1", R2 "question 2"');
    expect(messages.slice(1)).toEqual([...entries.slice(1), ...rest]);
  });

  it('an index folds again like any entry: the archive stays bounded over many compactions', () => {
    const memory = new InMemoryToolMemory();
    let list: Message[] = [];
    const budget = 12_000;
    for (let round = 1; round <= 120; round += 2) {
      list = boundArchive([...list, entry(round, round + 1, 2_000)], budget, memory).messages;
      const tokens = list.reduce((sum, message) => sum + message.content.length, 0) / 3;
      // Never more than the share, except the newest entry alone, which always stays.
      expect(tokens).toBeLessThanOrEqual(Math.max(budget * ARCHIVE_SHARE, 1_200));
    }
    // Every round is still covered by some entry.
    for (let round = 1; round <= 120; round += 1) {
      expect(
        list.some(
          ({ metadata }) => (metadata.coversRounds?.[0] ?? 0) <= round && round <= (metadata.coversRounds?.[1] ?? -1),
        ),
      ).toBe(true);
    }
  });

  it('leaves a small archive and a single entry alone', () => {
    const small = [entry(1, 2, 100), entry(3, 4, 100)];
    expect(boundArchive(small, 100_000, undefined)).toEqual({ messages: small, folded: 0 });
    const one = [entry(1, 2, 50_000)];
    expect(boundArchive(one, 1_000, undefined)).toEqual({ messages: one, folded: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { SUMMARY_SYSTEM, summaryRequestParts } from '../../src/context/summary-request.js';
import { renderTranscript } from '../../src/context/transcript.js';
import { closedRound, closedRounds } from './history-fixtures.js';

const fill = (transcript: string) => `INSTRUCTIONS\n<t>${transcript}</t>`;
const system = [{ text: 'L1 system', cacheBreakpoint: true }];

function prefixOf(rounds: ReturnType<typeof closedRounds>[]) {
  return {
    system,
    history: rounds.map((round, index) => ({
      text: renderTranscript(round),
      ...(index === rounds.length - 1 ? { cacheBreakpoint: true } : {}),
    })),
  };
}

describe('summary request on the cached prefix', () => {
  it('reuses the system and history blocks unchanged and adds one instruction naming the last archived round', () => {
    const prefix = prefixOf([closedRound(1), closedRound(2), closedRound(3)]);
    const parts = summaryRequestParts(closedRounds(1, 2), fill, { prefix, maxTokens: 100 });
    expect(parts.onPrefix).toBe(true);
    expect(parts.system).toEqual(prefix.system);
    expect(parts.user.slice(0, 3)).toEqual(prefix.history);
    expect(parts.user).toHaveLength(4);
    expect(parts.user[3]?.text).toContain('up to and including the round whose user request begins: "question 2"');
    expect(parts.user[3]?.text).not.toContain(renderTranscript(closedRound(1)));
  });

  it('writes the archived rounds the prefix lacks into the instruction block', () => {
    const prefix = prefixOf([closedRound(1)]);
    const parts = summaryRequestParts(closedRounds(1, 2), fill, { prefix, maxTokens: 100 });
    expect(parts.onPrefix).toBe(true);
    expect(parts.user.at(-1)?.text).toContain(renderTranscript(closedRound(2)));
    expect(parts.user.at(-1)?.text).not.toContain(renderTranscript(closedRound(1)));
  });

  it('falls back to the standalone prompt without a prefix, with none of the rounds in it, or over the window', () => {
    const archived = closedRounds(1, 2);
    const standalone = {
      system: [{ text: SUMMARY_SYSTEM }],
      user: [{ text: fill(renderTranscript(archived)) }],
      onPrefix: false,
    };
    expect(summaryRequestParts(archived, fill, { maxTokens: 100 })).toEqual(standalone);
    expect(summaryRequestParts(archived, fill, { prefix: prefixOf([closedRound(7)]), maxTokens: 100 })).toEqual(
      standalone,
    );
    const big = prefixOf([closedRound(1), closedRound(2), [{ ...closedRound(3)[0]!, content: 'x'.repeat(30_000) }]]);
    expect(summaryRequestParts(archived, fill, { prefix: big, contextWindow: 8_000, maxTokens: 100 })).toEqual(
      standalone,
    );
  });
});

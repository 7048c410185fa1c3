/**
 * The AgentEvent → Claude Code translation on its own: mca-only events become `system` lines with an `mca_`
 * subtype, a reply mca answered itself shows as the model's text plus `mca_reply_refused`, thinking comes before
 * the text, and the result prices the session from the shared table.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/events.js';
import { ClaudeCodeTranslator } from '../../src/claude-code/messages.js';
import { ModelUsageLedger } from '../../src/claude-code/usage.js';
import type { CcMessage } from '../../src/claude-code/types.js';
import { errorEnvelope } from '../../src/tools/registry/envelope.js';

const USAGE = { inputTokens: 1_000_000, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 1_000_000 };

function translate(events: AgentEvent[]): { lines: CcMessage[]; translator: ClaudeCodeTranslator } {
  const translator = new ClaudeCodeTranslator({
    sessionId: () => 'session-1',
    model: () => 'claude-sonnet-4-5',
    toClaudeCodeInput: (_tool, input) => input,
    ledger: new ModelUsageLedger(() => ({ contextWindow: 200_000, maxOutputTokens: 32_000 })),
  });
  return { lines: events.flatMap((event) => translator.event(event)), translator };
}

describe('ClaudeCodeTranslator', () => {
  it('turns mca-only events into mca_ system lines and a refused reply into text plus mca_reply_refused', () => {
    const { lines } = translate([
      { type: 'compaction_start', reason: 'threshold', tokensBefore: 9000, roundsToArchive: 2 },
      { type: 'step_start', step: 1, estimatedTokens: 100 },
      { type: 'thinking_delta', step: 1, text: 'Let me think.' },
      { type: 'usage', step: 1, usage: USAGE, contextTokens: 10 },
      { type: 'assistant_step', step: 1, thought: '', action: null, raw: 'Read[{"path": "a"}]' },
      {
        type: 'tool_end',
        step: 1,
        id: 'toolu_react',
        tool: 'ReAct',
        input: {},
        result: errorEnvelope('INVALID_PARAM', 'Nothing ran.'),
        compressed: '',
      },
    ]);
    expect(lines.map((line) => (line.type === 'system' ? line.subtype : line.type))).toEqual([
      'status',
      'mca_compaction_start',
      'assistant',
      'assistant',
      'mca_reply_refused',
    ]);
    expect(lines[0]).toMatchObject({ status: 'compacting', session_id: 'session-1' });
    expect(lines[1]).toMatchObject({ tokensBefore: 9000, session_id: 'session-1' });
    expect(lines[2]).toMatchObject({ message: { content: [{ type: 'thinking', thinking: 'Let me think.' }] } });
    expect(lines[3]).toMatchObject({ message: { content: [{ type: 'text', text: 'Read[{"path": "a"}]' }] } });
    expect(lines[4]).toMatchObject({ message: expect.stringContaining('Nothing ran.') });
  });

  it("writes Claude Code's api_retry, status and compact_boundary lines", () => {
    const { lines } = translate([
      { type: 'retry', step: 1, attempt: 1, delayMs: 950.4, reason: 'overloaded', maxRetries: 4, status: 529 },
      {
        type: 'compaction_end',
        reason: 'manual',
        outcome: 'summary',
        tokensBefore: 9000,
        tokensAfter: 1200,
        roundsKept: 1,
        roundsArchived: 3,
      },
      {
        type: 'compaction_end',
        reason: 'threshold',
        outcome: 'failed',
        tokensBefore: 9000,
        tokensAfter: 9000,
        roundsKept: 4,
        roundsArchived: 0,
        message: 'the summary failed',
      },
    ]);
    const cc = lines.filter((line) => line.type === 'system' && !line.subtype.startsWith('mca_'));
    expect(cc).toMatchObject([
      {
        subtype: 'api_retry',
        attempt: 1,
        max_retries: 4,
        retry_delay_ms: 950,
        error_status: 529,
        error: 'overloaded',
      },
      { subtype: 'status', status: null, compact_result: 'success' },
      {
        subtype: 'compact_boundary',
        compact_metadata: { trigger: 'manual', pre_tokens: 9000, post_tokens: 1200 },
      },
      { subtype: 'status', status: null, compact_result: 'failed', compact_error: 'the summary failed' },
    ]);
  });

  it('prices the result from the shared table, cache reads at a tenth of the input price', () => {
    const { translator } = translate([
      { type: 'step_start', step: 1, estimatedTokens: 100 },
      { type: 'usage', step: 1, usage: USAGE, contextTokens: 10 },
      { type: 'assistant_step', step: 1, thought: '', action: null, raw: 'Done.' },
    ]);
    const result = translator.result({ type: 'turn_end', reason: 'answer', answer: 'Done.', steps: 1, usage: USAGE });
    // $3 per million input tokens + $0.30 per million cache reads for Sonnet.
    expect(result.total_cost_usd).toBeCloseTo(3.3, 6);
    expect(result).toMatchObject({
      subtype: 'success',
      result: 'Done.',
      modelUsage: { 'claude-sonnet-4-5': { costUSD: expect.closeTo(3.3, 6), contextWindow: 200_000 } },
    });
  });
});

/**
 * A subagent's usage is stored on the Agent call's tool message (`metadata.carriedUsage`, per model): the session's
 * cost read back from a session file counts it under its own model, a compaction folds it into the summary's
 * archived usage like the parent's own calls, a file written before the field existed still loads, and hostile
 * counters in a file are ignored instead of turning the cost into NaN.
 */
import { describe, expect, it } from 'vitest';
import { usageByModel } from '../../src/context/archived-usage.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import type { Message } from '../../src/context/message.js';
import type { Summarizer, SummaryOutcome } from '../../src/context/summary-compressor.js';
import { parseSessionText } from '../../src/store/session-records.js';
import { carriedUsageStats } from '../../src/loop/carried-usage.js';
import { carriedUsageField } from '../../src/tools/registry/carried-usage.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { closedRound, finish, step, toolResult, usage, user } from '../context/history-fixtures.js';

const sonnet = (total: number) => ({ ...usage(total), model: 'claude-sonnet-4-5' });
const haiku = (total: number) => ({ ...usage(total), model: 'claude-haiku-4-5' });

/** Round 1: the parent (sonnet) calls Agent, whose subagent ran on haiku; then the parent finishes. */
function agentRound(): Message[] {
  const call = step(1, 1, 'Agent');
  const result = toolResult(1, 1, 'Agent');
  const envelope = successEnvelope({}, 'answer', { stats: carriedUsageStats({ 'claude-haiku-4-5': haiku(700) }) });
  return [
    user(1),
    { ...call, metadata: { ...call.metadata, usage: sonnet(100) } },
    { ...result, metadata: { ...result.metadata, ...carriedUsageField(envelope) } },
    finish(1, 2, 'finish', sonnet(200)),
  ];
}

const lines = (messages: readonly Message[]): string =>
  messages.map((message) => `${JSON.stringify({ type: 'message', message })}\n`).join('');

class Summary implements Summarizer {
  summarize(): Promise<SummaryOutcome> {
    return Promise.resolve({ ok: true, text: '## 📌 Archived Session Summary\nok', usage: usage(0) });
  }
}

describe('subagent usage in the session file', () => {
  it('a tool message carries the subagent usage per model, and the session cost counts it after a reload', () => {
    const round = agentRound();
    expect(round[2]?.metadata.carriedUsage).toEqual({ 'claude-haiku-4-5': haiku(700) });
    const parsed = parseSessionText(lines(round), 's.jsonl');
    expect(parsed.warnings).toEqual([]);
    const byModel = usageByModel(parsed.messages);
    expect(byModel['claude-sonnet-4-5']?.inputTokens).toBe(300);
    expect(byModel['claude-haiku-4-5']?.inputTokens).toBe(700);
  });

  it('a result without carried usage adds no field (older tools, older files)', () => {
    expect(carriedUsageField(successEnvelope({}, 'x'))).toEqual({});
    const old = parseSessionText(lines(closedRound(1)), 'old.jsonl');
    expect(old.warnings).toEqual([]);
    expect(old.messages).toHaveLength(4);
  });

  it('compaction archives the subagent usage on the summary, so it survives the snapshot', async () => {
    const history = new HistoryManager({ minRetainRounds: 1 }, [...agentRound(), ...closedRound(2)]);
    const before = usageByModel(history.messages);
    const result = await history.compact(new Summary());
    expect(result.outcome).toBe('summary');
    const summary = history.messages[0];
    expect(summary?.role).toBe('summary');
    expect(summary?.metadata.archivedUsage?.['claude-haiku-4-5']?.inputTokens).toBe(700);
    const reloaded = parseSessionText(
      `${JSON.stringify({ type: 'snapshot', messages: history.messages, ts: 'now' })}\n`,
      's.jsonl',
    );
    expect(usageByModel(reloaded.messages)).toEqual(before);
  });

  it('hostile counters in a file are skipped, never NaN', () => {
    const round = agentRound();
    const tool = round[2] as Message;
    const bad = {
      ...tool,
      metadata: { ...tool.metadata, carriedUsage: { x: { inputTokens: 'lots' }, y: null, z: { ...usage(-5) } } },
    };
    const parsed = parseSessionText(
      lines([round[0] as Message, round[1] as Message, bad as unknown as Message]),
      'bad.jsonl',
    );
    const byModel = usageByModel(parsed.messages);
    expect(Object.keys(byModel)).toEqual(['claude-sonnet-4-5']);
    expect(byModel['claude-sonnet-4-5']?.inputTokens).toBe(100);
  });
});

import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/providers/types.js';
import { createHarness, lastTurnEnd, userText } from '../helpers/agent-harness.js';
import { fail, finish } from '../helpers/scripted-provider.js';
import type { ScriptedPlainStep, ScriptedStep } from '../helpers/scripted-provider.js';

const SUMMARY = '## 📌 Archived Session Summary\n*(Contains context from a to b)*\n\nRounds about topic-0 and topic-1.';
const HEAVY = { inputTokens: 150_000, cacheReadInputTokens: 20_000, cacheCreationInputTokens: 0, outputTokens: 50 };

/** The summary prompt's closing line (prompts/summary.md) ends the instruction block; agent requests lack it. */
const SUMMARY_MARKER = 'Start your reply with `## 📌 Archived Session Summary`';

function isSummaryRequest(request: ModelRequest): boolean {
  return request.user.at(-1)?.text.includes(SUMMARY_MARKER) === true;
}

/** The instruction block of a summary request: its last user block (the rest is the reused prefix). */
function instructionOf(request: ModelRequest | undefined): string {
  return request?.user.at(-1)?.text ?? '';
}

/** Agent turns answer "done N" with heavy usage; summary requests answer with `summary` (a step or a function). */
function script(turns: number, summary: ScriptedPlainStep): ScriptedStep[] {
  let turn = 0;
  const step: ScriptedStep = (request) => {
    if (isSummaryRequest(request)) return summary;
    turn += 1;
    return { ...finish(`done ${turn}`), usage: HEAVY };
  };
  return Array.from({ length: turns + 2 }, () => step);
}

describe('CodeAgent: compaction', () => {
  it('archives old rounds into a summary once usage crosses the threshold, keeping the newest rounds verbatim', async () => {
    const h = await createHarness(script(6, { text: SUMMARY }), { env: { MCA_MIN_RETAIN_ROUNDS: '2' } });
    for (let index = 0; index < 4; index += 1) await h.turn(`topic-${index}`);
    const summaryCalls = h.provider.requests.filter(isSummaryRequest);
    expect(summaryCalls.length).toBeGreaterThanOrEqual(1);
    const firstSummary = userText(summaryCalls[0]);
    expect(firstSummary).toContain('topic-0');

    const last = userText(h.provider.requests.at(-1));
    expect(last).toContain('[system] ## 📌 Archived Session Summary');
    expect(last).not.toContain('[user] topic-0');
    expect(last).toContain('[user] topic-2'); // retained closed rounds stay verbatim
    expect(last).toContain('# Request\n\ntopic-3');
    const roles = h.agent.history().map((message) => message.role);
    expect(roles[0]).toBe('summary');
  });

  it('never sends an earlier summary to be summarized again', async () => {
    const h = await createHarness(script(10, { text: SUMMARY }), { env: { MCA_MIN_RETAIN_ROUNDS: '1' } });
    for (let index = 0; index < 6; index += 1) await h.turn(`topic-${index}`);
    const summaryCalls = h.provider.requests.filter(isSummaryRequest);
    expect(summaryCalls.length).toBeGreaterThanOrEqual(2);
    // Earlier summaries may be in the reused prefix as context, but never in what the call is asked to archive.
    for (const call of summaryCalls) expect(instructionOf(call)).not.toContain('[system] ## 📌');
    const summaries = h.agent.history().filter((message) => message.role === 'summary');
    expect(summaries.length).toBe(summaryCalls.length);
    // Each summary stays as it was written (with its ledger): only appended, never rewritten.
    for (const entry of summaries)
      expect(entry.content).toMatch(/^## 📌 Archived Session Summary[\s\S]*### Facts ledger/);
  });

  it('falls back with the exact message when the summary times out, and the turn still completes', async () => {
    const h = await createHarness(script(4, { hang: true }), {
      env: { MCA_MIN_RETAIN_ROUNDS: '1', MCA_SUMMARY_TIMEOUT_MS: '100' },
    });
    await h.turn('topic-0');
    await h.turn('topic-1');
    const events = await h.turn('topic-2');
    const end = events.find((event) => event.type === 'compaction_end');
    expect(end).toMatchObject({
      outcome: 'timeout',
      message: 'Summary generation timed out, keeping recent history only.',
    });
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'finish' });
    expect(userText(h.provider.requests.at(-1))).not.toContain('[user] topic-0');
  });

  it('reports an empty summary as a failure and drops the archived part', async () => {
    const h = await createHarness(script(4, { text: '   ' }), { env: { MCA_MIN_RETAIN_ROUNDS: '1' } });
    await h.turn('topic-0');
    await h.turn('topic-1');
    const events = await h.turn('topic-2');
    const end = events.find((event) => event.type === 'compaction_end');
    expect(end?.type === 'compaction_end' && end.message).toMatch(
      /^Summary generation failed: .+, keeping recent history only\.$/,
    );
  });

  it('does not compact again right after a compaction (stale usage is forgotten)', async () => {
    const h = await createHarness(script(6, { text: SUMMARY }), { env: { MCA_MIN_RETAIN_ROUNDS: '2' } });
    for (let index = 0; index < 4; index += 1) await h.turn(`topic-${index}`);
    const before = h.provider.requests.filter(isSummaryRequest).length;
    // The last turn reported heavy usage again, so exactly one more compaction may happen, not one per step.
    const events = await h.turn('topic-4');
    expect(events.filter((event) => event.type === 'compaction_start').length).toBeLessThanOrEqual(1);
    expect(h.provider.requests.filter(isSummaryRequest).length).toBeLessThanOrEqual(before + 1);
  });

  it('compacts in an emergency when the API says the prompt is too long, then retries once', async () => {
    let agentCalls = 0;
    const step: ScriptedStep = (request) => {
      if (isSummaryRequest(request)) return { text: SUMMARY };
      agentCalls += 1;
      if (agentCalls === 4) return fail('context_too_long', 'prompt is too long: 210000 tokens > 200000 maximum');
      return finish(`done ${agentCalls}`);
    };
    const h = await createHarness(
      Array.from({ length: 8 }, () => step),
      { env: { MCA_MIN_RETAIN_ROUNDS: '1' } },
    );
    for (let index = 0; index < 3; index += 1) await h.turn(`topic-${index}`);
    const events = await h.turn('topic-3');
    expect(events.find((event) => event.type === 'compaction_start')).toMatchObject({ reason: 'emergency' });
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'finish', answer: 'done 5' });
  });

  it('continues the usage count across a reopened session (-c)', async () => {
    const light = finish('light');
    const heavy = { ...finish('heavy'), usage: HEAVY };
    const h = await createHarness([light, heavy, { text: SUMMARY }, finish('after')], {
      env: { MCA_MIN_RETAIN_ROUNDS: '1' },
    });
    await h.turn('topic-0');
    await h.turn('topic-1');
    await h.reopen();
    expect(h.agent.contextReport().lastUsage).toBe(170_050);
    const events = await h.turn('topic-2');
    expect(events.find((event) => event.type === 'compaction_end')).toMatchObject({ outcome: 'summary' });
    expect(isSummaryRequest(h.provider.requests[2] as ModelRequest)).toBe(true);
  });

  it("asks for the summary on the cached prefix: the previous request's system and L3 blocks, unchanged", async () => {
    const h = await createHarness(script(6, { text: SUMMARY }), { env: { MCA_MIN_RETAIN_ROUNDS: '2' } });
    for (let index = 0; index < 4; index += 1) await h.turn(`topic-${index}`);
    const index = h.provider.requests.findIndex(isSummaryRequest);
    expect(index).toBeGreaterThan(0);
    const previous = h.provider.requests[index - 1] as ModelRequest;
    const summary = h.provider.requests[index] as ModelRequest;
    expect(isSummaryRequest(previous)).toBe(false);
    expect(summary.system).toEqual(previous.system);
    // Everything before the current request's block: the earlier rounds, as they were sent (engine v4: live rounds).
    const current = previous.user.findLastIndex((segment) => segment.text.startsWith('# Request'));
    const historyBlocks = previous.user.slice(0, current);
    expect(historyBlocks.length).toBeGreaterThan(0);
    expect(summary.user.slice(0, historyBlocks.length)).toEqual(historyBlocks);
    // Exactly one block more: the instruction, naming the last round to archive and not repeating the transcript.
    expect(summary.user).toHaveLength(historyBlocks.length + 1);
    expect(instructionOf(summary)).toContain('up to and including the round whose user request begins: "topic-0"');
    expect(instructionOf(summary)).not.toContain('# Request\n\ntopic-0');
    // The archive entry ends with the ledger built from the recorded rounds.
    const archived = h.agent.history().find((message) => message.role === 'summary');
    expect(archived?.content).toContain('- Requests: R1 "topic-0"');
  });

  it('manual /compact passes the focus text into the summary request', async () => {
    const h = await createHarness(script(3, { text: SUMMARY }), { env: { MCA_MIN_RETAIN_ROUNDS: '1' } });
    await h.turn('topic-0');
    await h.turn('topic-1');
    const events: string[] = [];
    for await (const event of h.agent.compact({
      focus: 'keep the API decisions',
      signal: new AbortController().signal,
    })) {
      events.push(event.type);
    }
    expect(events).toEqual(['compaction_start', 'compaction_end']);
    expect(userText(h.provider.requests.filter(isSummaryRequest)[0])).toContain('keep the API decisions');
  });
});

describe('CodeAgent: one huge turn', () => {
  it('degrades older steps (compressed, then one line) so no request passes threshold × window', async () => {
    const files: Record<string, string> = {};
    const line = 'x'.repeat(70);
    for (let index = 0; index < 6; index += 1) {
      files[`f${index}.txt`] = Array.from({ length: 400 }, (_, n) => `${index}:${n} ${line}`).join('\n');
    }
    const steps = [
      ...Object.keys(files).map((path) => ({
        ...finish('unused'),
        text: `Thought: read\nAction: Read[{"path": "${path}"}]`,
      })),
      finish('read all'),
    ];
    const h = await createHarness(steps, {
      files,
      env: { MCA_CONTEXT_WINDOW: '31000', MCA_COMPRESSION_THRESHOLD: '0.8' },
    });
    const events = await h.turn('read every file');
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'finish', answer: 'read all' });
    const limit = 31_000 * 0.8;
    for (const event of events)
      if (event.type === 'step_start') expect(event.estimatedTokens).toBeLessThanOrEqual(limit);
    const degrades = events
      .filter((event) => event.type === 'degrade')
      .map((event) => event.type === 'degrade' && event.message);
    expect(degrades.length).toBeGreaterThanOrEqual(2);
    expect(degrades[0]).toMatch(/compressed results/);
    // The newest observation is always shown in full.
    expect(userText(h.provider.requests.at(-1))).toContain('5:399 ');
  });
});

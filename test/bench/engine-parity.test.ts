/**
 * The bench measures the product: for one scripted session (several turns, tool steps, compactions in a small
 * window) the bench's mca strategy and a real CodeAgent (real tools, ScriptedProvider) send the same requests,
 * segment by segment, with the same cache breakpoints. The agent runs first; each step's reply text, usage and
 * tool result are then replayed through McaStrategy the way the bench driver does it.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/events.js';
import { PART_SEPARATOR } from '../../src/context/context-builder.js';
import { planCompaction } from '../../src/context/compaction.js';
import { isSummaryRequest } from '../../src/context/summary-request.js';
import { estimateTokens } from '../../src/context/token-budget.js';
import type { ModelRequest } from '../../src/providers/types.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { McaStrategy, mcaReply } from '../../bench/replay/mca-strategy.js';
import { MCA_MIN_RETAIN_ROUNDS } from '../../bench/replay/mca/engine-adapter.js';
import type { Segment } from '../../bench/replay/prefix-cache.js';
import { standInSummary, type ReplayStep, type StrategyEvent } from '../../bench/replay/strategy.js';
import type { MappedAction } from '../../bench/replay/action-map.js';
import { createHarness, type Harness } from '../helpers/agent-harness.js';
import type { ScriptedStep } from '../helpers/scripted-provider.js';

// With the profile threshold of 0.5 this gives about the budget the scenario was written for (≈13,000 tokens).
const WINDOW = 26_000;

type PlannedStep = { thought: string; tool: MappedAction['tool']; input: Record<string, unknown> } | { answer: string };

/** 24 turns: reads of project files (one turn reads many, so the trigger also fires inside a turn), then Finish. */
function plannedTurns(): Array<{ text: string; steps: PlannedStep[] }> {
  const turns: Array<{ text: string; steps: PlannedStep[] }> = [];
  for (let index = 0; index < 24; index += 1) {
    const reads = index === 11 ? 5 : 1 + (index % 2);
    const steps: PlannedStep[] = Array.from({ length: reads }, (_, step) => ({
      thought: `read part ${step} of module ${index}`,
      tool: 'Read' as const,
      input: { path: `src/m${(index + step) % 6}.ts` },
    }));
    if (index % 4 === 3) steps.push({ thought: 'search', tool: 'Grep', input: { pattern: `value${index % 6}` } });
    steps.push({ answer: `module ${index} looked at` });
    turns.push({ text: `Turn ${index}: look at module ${index} and tell me what it does`, steps });
  }
  return turns;
}

function replyText(step: PlannedStep): string {
  if ('answer' in step) return mcaReply({ thought: 'done', answer: step.answer });
  return mcaReply({
    thought: step.thought,
    action: {
      tool: step.tool,
      input: step.input,
      envelope: successEnvelope({}, ''),
    },
  });
}

/** A provider request as the bench's segments: system then user, each after the first led by the separator. */
function requestSegments(request: ModelRequest): Segment[] {
  return [...request.system, ...request.user].map((segment, index) => ({
    text: index === 0 ? segment.text : PART_SEPARATOR + segment.text,
    ...(segment.cacheBreakpoint ? { cacheBreakpoint: true } : {}),
  }));
}

const files = Object.fromEntries(
  Array.from({ length: 6 }, (_, index) => [
    `src/m${index}.ts`,
    Array.from(
      { length: 40 },
      (_, line) => `export const value${index}_${line} = ${line * index}; // line ${line}`,
    ).join('\n'),
  ]),
);

describe('bench mca strategy ↔ CodeAgent', () => {
  it('send identical requests for the same scripted session, through compactions', async () => {
    const turns = plannedTurns();
    const replies = turns.flatMap((turn) => turn.steps.map(replyText));
    let estimate = 0;
    let replyIndex = 0;
    const live: { harness?: Harness } = {};
    // One dispatcher answers every call: summary requests with the bench's stand-in for what they archive, agent
    // calls with the planned reply and the usage the bench records (the request's estimate, the reply's estimate).
    const dispatch: ScriptedStep = (request) => {
      if (isSummaryRequest(request)) {
        const archived = planCompaction(live.harness?.agent.history() ?? [], MCA_MIN_RETAIN_ROUNDS).archive.length;
        return { text: standInSummary(archived, 'mca') };
      }
      const text = replies[replyIndex] ?? '';
      replyIndex += 1;
      const usage = { inputTokens: estimate, outputTokens: estimateTokens(text) };
      return { text, usage: { ...usage, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 } };
    };
    const h = await createHarness(
      Array.from({ length: 200 }, () => dispatch),
      { env: { MCA_CONTEXT_WINDOW: String(WINDOW) }, files },
    );
    live.harness = h;

    const agentEvents: AgentEvent[] = [];
    const envelopes: MappedAction['envelope'][] = [];
    for (const turn of turns) {
      for await (const event of h.agent.run(turn.text, { signal: new AbortController().signal })) {
        agentEvents.push(event);
        if (event.type === 'step_start') estimate = event.estimatedTokens;
        if (event.type === 'tool_end') envelopes.push(event.result);
        if (event.type === 'turn_end') expect(event.reason).toBe('finish');
      }
    }
    const agentRequests = h.provider.requests.filter((request) => !isSummaryRequest(request));
    const summaryCalls = h.provider.requests.length - agentRequests.length;
    expect(replyIndex).toBe(replies.length);
    // The session really exercised compaction: a summary archived rounds, and the trigger fired inside a turn.
    const ends = agentEvents.filter((event) => event.type === 'compaction_end');
    expect(ends.some((event) => event.type === 'compaction_end' && event.outcome === 'summary')).toBe(true);
    expect(summaryCalls).toBeGreaterThan(0);

    const strategy = new McaStrategy({
      contextWindow: WINDOW,
      systemText: agentRequests[0]?.system[0]?.text ?? '',
      maxOutputTokens: h.config.maxOutputTokens,
    });
    const benchRequests: Segment[][] = [];
    const benchEvents: StrategyEvent[] = [];
    let envelopeIndex = 0;
    for (const turn of turns) {
      benchEvents.push(...(await strategy.startTurn(turn.text)));
      for (const planned of turn.steps) {
        const { call, events } = await strategy.nextCall();
        benchEvents.push(...events);
        benchRequests.push(call.segments);
        const step: ReplayStep =
          'answer' in planned
            ? { thought: 'done', answer: planned.answer }
            : {
                thought: planned.thought,
                action: { tool: planned.tool, input: planned.input, envelope: envelopes[envelopeIndex++]! },
              };
        strategy.record(step, call);
      }
      strategy.endTurn();
    }

    expect(benchRequests).toHaveLength(agentRequests.length);
    agentRequests.forEach((request, index) => {
      expect(benchRequests[index], `request ${index + 1}`).toEqual(requestSegments(request));
    });
    expect(benchEvents.filter((event) => event.kind === 'summary')).toHaveLength(summaryCalls);
    expect(benchEvents.filter((event) => event.kind === 'compaction').length).toBeGreaterThan(0);
  });
});

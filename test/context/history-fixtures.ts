/** Builders for histories used by the context tests. */
import type { Message, RoundEnd } from '../../src/context/message.js';
import type { Usage } from '../../src/providers/types.js';

export const TS = '2026-01-01T00:00:00.000Z';

export function user(round: number, content = `question ${round}`): Message {
  return { role: 'user', content, metadata: { round, ts: TS } };
}

export function step(round: number, stepNo: number, tool = 'Read'): Message {
  return {
    role: 'assistant',
    content: `Thought: step ${stepNo}\nAction: ${tool}[{"path":"f${round}.ts"}]`,
    metadata: { round, step: stepNo, ts: TS, action: { tool, input: { path: `f${round}.ts` } } },
  };
}

export function toolResult(
  round: number,
  stepNo: number,
  tool = 'Read',
  content = '{"status":"success","data":{}}',
): Message {
  return {
    role: 'tool',
    content,
    metadata: { round, step: stepNo, ts: TS, toolName: tool, action: { tool, input: { path: `f${round}.ts` } } },
  };
}

export function finish(round: number, stepNo: number, reason: RoundEnd = 'finish', usage?: Usage): Message {
  return {
    role: 'assistant',
    content: `Thought: done\nAction: Finish[answer ${round}]`,
    metadata: { round, step: stepNo, ts: TS, roundEnd: reason, ...(usage ? { usage } : {}) },
  };
}

export function summary(
  first: number,
  last: number,
  content = `## 📌 Archived Session Summary\nrounds ${first}-${last}`,
): Message {
  return { role: 'summary', content, metadata: { round: last, ts: TS, coversRounds: [first, last] } };
}

/** A closed round with `tools` action/result pairs, then a Finish. */
export function closedRound(round: number, tools = 1, toolContent?: string): Message[] {
  const messages: Message[] = [user(round)];
  for (let index = 1; index <= tools; index += 1) {
    messages.push(step(round, index), toolResult(round, index, 'Read', toolContent));
  }
  messages.push(finish(round, tools + 1));
  return messages;
}

export function closedRounds(from: number, to: number, tools = 1): Message[] {
  const messages: Message[] = [];
  for (let round = from; round <= to; round += 1) messages.push(...closedRound(round, tools));
  return messages;
}

export function usage(total: number): Usage {
  return { inputTokens: total, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
}

/**
 * One function step for the loopback fake API that answers by kind of request: summary calls (their system text
 * is the summarizer's) get the summary reply, agent calls take the next reply from a queue. Order of /compact and
 * turns then does not matter, and a request nobody planned gets a visible API error instead of a wrong reply.
 */
import {
  systemText,
  userText,
  type FakePlainStep,
  type FakeReplyStep,
  type FakeRequestBody,
  type FakeStep,
} from '../../helpers/fake-anthropic-server.js';

/** The summary prompt's closing instruction (prompts/summary.md); agent prompts never contain it. */
const SUMMARY_MARKER = 'Start your reply with `## 📌 Archived Session Summary`';

export function isSummaryRequest(body: FakeRequestBody): boolean {
  return userText(body).includes(SUMMARY_MARKER) || systemText(body).includes('You archive finished parts');
}

export interface AgentScript {
  step: FakeStep;
  /** Replies not used yet. */
  pending(): number;
  agentRequests: FakeRequestBody[];
  summaryRequests: FakeRequestBody[];
}

export function agentScript(replies: FakeReplyStep[], summary: FakeReplyStep): AgentScript {
  const queue = [...replies];
  const agentRequests: FakeRequestBody[] = [];
  const summaryRequests: FakeRequestBody[] = [];
  const step = (body: FakeRequestBody): FakePlainStep => {
    if (isSummaryRequest(body)) {
      summaryRequests.push(body);
      return summary;
    }
    agentRequests.push(body);
    return queue.shift() ?? { status: 500, message: 'e2e script: no agent reply left for this request' };
  };
  return { step, pending: () => queue.length, agentRequests, summaryRequests };
}

/** A ReAct step: `Thought: …` then `Action: Tool[{json}]`. */
export function act(thought: string, tool: string, input: Record<string, unknown>): FakeReplyStep {
  return { text: `Thought: ${thought}\nAction: ${tool}[${JSON.stringify(input)}]` };
}

/** The final step: `Action: Finish[answer]`, streamed in many small deltas. */
export function finish(thought: string, answer: string): FakeReplyStep {
  return { text: `Thought: ${thought}\nAction: Finish[${answer}]`, chunks: 12 };
}

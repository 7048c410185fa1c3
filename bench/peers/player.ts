/**
 * The fake model's brain: it plays the script's steps in order, one per request of the program's main loop, and
 * answers side queries (titles, next-speaker checks, quota probes) with a short fixed text without consuming a
 * step. A request belongs to the main loop when it offers the program's file or shell tools (tool-map.ts).
 */
import { isAnswer, type Step, type Task } from './script.js';
import { isAgentRequest, mapStep, type DeclaredTool, type MappedCall } from './tool-map.js';

export type Reply = { kind: 'text'; text: string } | { kind: 'call'; call: MappedCall };

export interface RecordedRequest {
  api: string;
  path: string;
  /** The body as sent. */
  raw: string;
  /** Main-loop request (true) or side query (false). */
  agent: boolean;
  /** The script step this request was answered with (main-loop requests only). */
  step?: number;
  /** What the fake answered, as the text and call arguments it wrote (for output tokens). */
  replyText: string;
}

/** Text a side query gets: JSON for a request that demands JSON (Gemini CLI's next-speaker check), else a line. */
export function sideReply(wantsJson: boolean): string {
  if (wantsJson) return JSON.stringify({ reasoning: 'The model answered the user.', next_speaker: 'user' });
  return 'Query string fixes';
}

export class Player {
  private readonly steps: Step[];
  private cursor = 0;
  readonly requests: RecordedRequest[] = [];
  /** Main-loop requests that arrived after the script ran out (a program that would not stop). */
  overruns = 0;

  constructor(
    task: Task,
    private readonly root: string,
  ) {
    this.steps = task.turns.flatMap((turn) => turn.steps);
  }

  stepsPlayed(): number {
    return this.cursor;
  }

  /** Decides the reply to one request and records it. */
  answer(api: string, path: string, raw: string, tools: readonly DeclaredTool[], wantsJson: boolean): Reply {
    if (!isAgentRequest(tools)) {
      const text = sideReply(wantsJson);
      this.requests.push({ api, path, raw, agent: false, replyText: text });
      return { kind: 'text', text };
    }
    const index = this.cursor;
    const step = this.steps[index];
    if (step === undefined) {
      this.overruns += 1;
      this.requests.push({ api, path, raw, agent: true, replyText: 'Done.' });
      return { kind: 'text', text: 'Done.' };
    }
    this.cursor += 1;
    if (isAnswer(step)) {
      this.requests.push({ api, path, raw, agent: true, step: index, replyText: step.answer });
      return { kind: 'text', text: step.answer };
    }
    const call = mapStep(step, tools, this.root);
    const args = typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
    this.requests.push({ api, path, raw, agent: true, step: index, replyText: `${call.say}${call.name}${args}` });
    return { kind: 'call', call };
  }
}

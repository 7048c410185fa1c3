/**
 * A ModelProvider that plays a fixed script, for agent and context tests. Each call consumes one step;
 * running out throws loudly so a test never silently gets a made-up answer.
 */
import { ProviderError, type ProviderErrorKind } from '../../src/providers/provider-error.js';
import type { ModelProvider, ModelRequest, StopReason, StreamEvent, Usage } from '../../src/providers/types.js';
import { splitChunks } from './loopback-http.js';

export interface ScriptedReply {
  text: string;
  /** Missing counters default to: input ≈ prompt chars / 4, output ≈ text chars / 4, cache 0. */
  usage?: Partial<Usage>;
  /** Default 'end_turn'; a request stop sequence found in the text overrides it with 'stop_sequence'. */
  stopReason?: StopReason;
  /** Number of text deltas (default 3). */
  chunks?: number;
}

/** Throws `error`, after streaming `partialText` when given (a stream that dies mid-way). */
export interface ScriptedError {
  error: ProviderError;
  partialText?: string;
}

/** Never yields; throws ProviderError 'aborted' once the signal fires. */
export interface ScriptedHang {
  hang: true;
}

export type ScriptedPlainStep = ScriptedReply | ScriptedError | ScriptedHang;
export type ScriptedStep = ScriptedPlainStep | ((request: ModelRequest, call: number) => ScriptedPlainStep);

export function reply(text: string, usage?: Partial<Usage>): ScriptedReply {
  return usage ? { text, usage } : { text };
}

export function finish(answer: string): ScriptedReply {
  return { text: `Thought: done\nAction: Finish[${answer}]` };
}

export function act(tool: string, input: unknown, thought = `I will use ${tool}.`): ScriptedReply {
  return { text: `Thought: ${thought}\nAction: ${tool}[${JSON.stringify(input)}]` };
}

export function fail(kind: ProviderErrorKind, message = `scripted ${kind}`, status?: number): ScriptedError {
  return { error: new ProviderError(kind, message, status === undefined ? {} : { status }) };
}

/** All prompt text of a request (system then user segments), joined with "\n". */
export function promptText(request: ModelRequest): string {
  return [...request.system, ...request.user].map((segment) => segment.text).join('\n');
}

function abortedError(): ProviderError {
  return new ProviderError('aborted', 'The request was cancelled.');
}

function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(abortedError());
    else signal.addEventListener('abort', () => reject(abortedError()), { once: true });
  });
}

export class ScriptedProvider implements ModelProvider {
  readonly name = 'scripted';
  /** Every request received, in order (including the one that exhausted the script). */
  readonly requests: ModelRequest[] = [];
  private readonly steps: ScriptedStep[];
  private next = 0;

  constructor(steps: ScriptedStep[] = []) {
    this.steps = [...steps];
  }

  /** Appends steps to the end of the script. */
  push(...steps: ScriptedStep[]): void {
    this.steps.push(...steps);
  }

  get calls(): number {
    return this.requests.length;
  }

  get remaining(): number {
    return this.steps.length - this.next;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    this.requests.push(request);
    const call = this.requests.length;
    const scripted = this.steps[this.next];
    if (scripted === undefined) {
      throw new Error(`ScriptedProvider: script exhausted at call ${call} (script has ${this.steps.length} steps)`);
    }
    this.next++;
    const step = typeof scripted === 'function' ? scripted(request, call) : scripted;
    if (signal.aborted) throw abortedError();

    if ('hang' in step) return await waitForAbort(signal);
    if ('error' in step) {
      for (const piece of splitChunks(step.partialText ?? '', 2)) {
        await Promise.resolve();
        if (signal.aborted) throw abortedError();
        yield { type: 'text', text: piece };
      }
      throw step.error;
    }
    const { text, stopReason } = applyStopSequences(step, request.stopSequences ?? []);
    for (const piece of splitChunks(text, step.chunks ?? 3)) {
      // A microtask between deltas gives an aborting consumer a chance to be seen.
      await Promise.resolve();
      if (signal.aborted) throw abortedError();
      yield { type: 'text', text: piece };
    }
    const usage: Usage = {
      inputTokens: Math.ceil(promptText(request).length / 4),
      outputTokens: Math.max(1, Math.ceil(text.length / 4)),
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
      ...step.usage,
    };
    yield { type: 'done', stopReason, usage };
  }
}

/** The API ends the text before the first stop sequence and reports 'stop_sequence'. */
function applyStopSequences(step: ScriptedReply, stops: readonly string[]): { text: string; stopReason: StopReason } {
  let cut = -1;
  for (const stop of stops) {
    const at = stop.length > 0 ? step.text.indexOf(stop) : -1;
    if (at >= 0 && (cut < 0 || at < cut)) cut = at;
  }
  if (cut < 0) return { text: step.text, stopReason: step.stopReason ?? 'end_turn' };
  return { text: step.text.slice(0, cut), stopReason: 'stop_sequence' };
}

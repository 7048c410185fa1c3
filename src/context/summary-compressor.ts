/**
 * SummaryCompressor (spec A5, C2, E2): archives old rounds into one structured summary with a separate model
 * call. It never throws: every failure is a value the HistoryManager turns into the exact user-facing line.
 */
import { complete, type ModelProvider, type Usage } from '../providers/types.js';
import { estimateTokens } from './token-budget.js';
import { turnMessageText } from './native-turn.js';
import type { Message } from './message.js';
import { summaryRequestParts, type SummaryPrefix, type SummaryRequestParts } from './summary-request.js';
import { McaError } from '../errors/mca-error.js';

export { SUMMARY_SYSTEM, type SummaryPrefix } from './summary-request.js';

export type SummaryOutcome =
  { ok: true; text: string; usage: Usage } | { ok: false; reason: 'timeout' | 'failed' | 'empty'; detail: string };

export interface SummarizeOptions {
  /** What the user asked the summary to focus on (`/compact <focus>`). */
  focus?: string;
  signal?: AbortSignal;
  /** The last request's system and L3 blocks: the summary is asked on that cached prefix when it can be. */
  prefix?: SummaryPrefix;
}

/** Anything that can archive messages into a summary; the HistoryManager depends only on this. */
export interface Summarizer {
  summarize(messages: readonly Message[], options: SummarizeOptions): Promise<SummaryOutcome>;
}

/** The heading every valid summary starts with (the A5 template). */
export const SUMMARY_HEADING = '## 📌 Archived Session Summary';

/** Exact user-facing texts (DESIGN.md "Compaction", spec E2). */
export const SUMMARY_TIMEOUT_MESSAGE = 'Summary generation timed out, keeping recent history only.';
export function summaryFailedMessage(why: string): string {
  return `Summary generation failed: ${why}, keeping recent history only.`;
}

export interface SummaryCompressorOptions {
  provider: ModelProvider;
  /** The summary model; a function when it follows the session's current model (`/model`). */
  model: string | (() => string);
  timeoutMs: number;
  maxTokens?: number;
  /** The model's window: a summary request that would not fit is not sent (the rounds get an archive note). */
  contextWindow?: number;
  /** prompts/summary.md: placeholders {{start_time}}, {{cutoff_time}}, {{focus}}, {{transcript}}. */
  template: string;
}

/** Fills `{{name}}` placeholders; values are inserted literally (no `$&` style replacement patterns). */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{([a-z_]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}

function focusText(focus: string | undefined): string {
  const trimmed = focus?.trim();
  return trimmed ? `The user asked this summary to focus on: ${trimmed}` : '';
}

class TimeoutSignal extends McaError {
  readonly code = 'SUMMARY_TIMEOUT' as const;
}

export class SummaryCompressor implements Summarizer {
  private readonly options: SummaryCompressorOptions;

  constructor(options: SummaryCompressorOptions) {
    this.options = options;
  }

  /** The request's blocks: on the last request's prefix when given and usable, else the standalone prompt. */
  buildRequest(
    messages: readonly Message[],
    options: Pick<SummarizeOptions, 'focus' | 'prefix'> = {},
  ): SummaryRequestParts {
    return summaryRequestParts(messages, (transcript) => this.fill(messages, options.focus, transcript), {
      prefix: options.prefix,
      contextWindow: this.options.contextWindow,
      maxTokens: this.maxTokens,
    });
  }

  private get maxTokens(): number {
    return this.options.maxTokens ?? 4_096;
  }

  private fill(messages: readonly Message[], focus: string | undefined, transcript: string): string {
    const first = messages[0]?.metadata.ts ?? 'unknown';
    const last = messages[messages.length - 1]?.metadata.ts ?? 'unknown';
    return fillTemplate(this.options.template, {
      start_time: first,
      cutoff_time: last,
      focus: focusText(focus),
      transcript,
    });
  }

  async summarize(messages: readonly Message[], options: SummarizeOptions = {}): Promise<SummaryOutcome> {
    const controller = new AbortController();
    const { timeoutMs } = this.options;
    let timer: NodeJS.Timeout | undefined;
    let onCallerAbort: (() => void) | undefined;
    // Resolves when the timeout or the caller fires, so a provider that ignores the signal cannot hang us.
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new TimeoutSignal('timeout'));
        reject(new TimeoutSignal('timeout'));
      }, timeoutMs);
      onCallerAbort = () => {
        controller.abort(options.signal?.reason);
        reject(new Error('interrupted'));
      };
      if (options.signal?.aborted) onCallerAbort();
      else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    });
    stopped.catch(() => undefined);
    try {
      const parts = this.buildRequest(messages, options);
      const request = {
        model: typeof this.options.model === 'function' ? this.options.model() : this.options.model,
        system: parts.system,
        user: parts.user,
        maxTokens: this.maxTokens,
        ...(parts.tools ? { tools: parts.tools } : {}),
        ...(parts.turn ? { turn: parts.turn } : {}),
      };
      const text = [
        ...[...parts.system, ...parts.user].map((segment) => segment.text),
        ...(parts.turn ?? []).map(turnMessageText),
      ].join('\n');
      const needed = estimateTokens(text) + request.maxTokens;
      if (this.options.contextWindow !== undefined && needed > this.options.contextWindow) {
        return { ok: false, reason: 'failed', detail: 'the part to archive is larger than the context window' };
      }
      const running = complete(this.options.provider, request, controller.signal);
      running.catch(() => undefined);
      const completion = await Promise.race([running, stopped]);
      return validate(completion.text, completion.usage);
    } catch (error) {
      if (error instanceof TimeoutSignal || controller.signal.reason instanceof TimeoutSignal) {
        return { ok: false, reason: 'timeout', detail: `no summary within ${timeoutMs} ms` };
      }
      if (options.signal?.aborted) return { ok: false, reason: 'failed', detail: 'interrupted' };
      return { ok: false, reason: 'failed', detail: describeError(error) };
    } finally {
      clearTimeout(timer);
      if (onCallerAbort) options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0]?.trim() ?? '';
  return line === '' ? 'unknown error' : line;
}

/** Accepts only a non-empty summary with the template heading; text before the heading is dropped. */
function validate(text: string, usage: Usage): SummaryOutcome {
  if (text.trim() === '') return { ok: false, reason: 'empty', detail: 'the model returned an empty summary' };
  const start = text.indexOf(SUMMARY_HEADING);
  if (start < 0) {
    return { ok: false, reason: 'failed', detail: 'the summary does not follow the template (missing heading)' };
  }
  // A model that wrapped the summary in a code fence leaves a closing fence behind; drop it.
  const body = text
    .slice(start)
    .trim()
    .replace(/\n?```\s*$/, '')
    .trimEnd();
  return { ok: true, text: body, usage };
}

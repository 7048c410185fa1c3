import { describe, expect, it } from 'vitest';
import {
  SUMMARY_HEADING,
  SUMMARY_TIMEOUT_MESSAGE,
  SummaryCompressor,
  fillTemplate,
  summaryFailedMessage,
} from '../../src/context/summary-compressor.js';
import { loadPrompt } from '../../src/context/prompt-loader.js';
import type { Message } from '../../src/context/message.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import type { ModelProvider, ModelRequest, StreamEvent } from '../../src/providers/types.js';
import { closedRound } from './history-fixtures.js';

const USAGE = { inputTokens: 100, outputTokens: 20, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };

/** Replies with fixed text and records each request. */
class TextProvider implements ModelProvider {
  readonly name = 'text';
  requests: ModelRequest[] = [];
  constructor(private readonly text: string) {}
  async *stream(request: ModelRequest): AsyncIterable<StreamEvent> {
    this.requests.push(request);
    yield { type: 'text', text: this.text };
    yield { type: 'done', stopReason: 'end_turn', usage: USAGE };
  }
}

/** Never yields; ends with an aborted ProviderError when the signal fires (or never, if `deaf`). */
class HangingProvider implements ModelProvider {
  readonly name = 'hanging';
  sawAbort = false;
  constructor(private readonly deaf = false) {}
  async *stream(_request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
    await new Promise<void>((_, reject) => {
      if (this.deaf) return;
      signal.addEventListener('abort', () => {
        this.sawAbort = true;
        reject(new ProviderError('aborted', 'request aborted'));
      });
    });
    yield { type: 'done', stopReason: 'end_turn', usage: USAGE };
  }
}

class FailingProvider implements ModelProvider {
  readonly name = 'failing';
  // eslint-disable-next-line require-yield
  async *stream(): AsyncIterable<StreamEvent> {
    throw new ProviderError('server', 'server error (HTTP 500)\nstack details');
  }
}

const TEMPLATE = 'From {{start_time}} to {{cutoff_time}}.\n{{focus}}\n<t>\n{{transcript}}\n</t> {{unknown}}';
const messages: Message[] = closedRound(1).map((message, index) => ({
  ...message,
  metadata: { ...message.metadata, ts: `2026-01-01T00:00:0${index}.000Z` },
}));

function compressor(provider: ModelProvider, timeoutMs = 5_000): SummaryCompressor {
  return new SummaryCompressor({ provider, model: 'm', timeoutMs, template: TEMPLATE });
}

describe('SummaryCompressor', () => {
  it('does not send a summary request that would not fit the window; the caller archives a note instead', async () => {
    const provider = new TextProvider(`${SUMMARY_HEADING}\nbody`);
    const big = closedRound(1, 1, JSON.stringify({ status: 'success', data: { blob: 'x'.repeat(30_000) } }));
    const small = new SummaryCompressor({
      provider,
      model: 'm',
      timeoutMs: 5_000,
      template: TEMPLATE,
      contextWindow: 8_000,
    });
    expect(await small.summarize(big)).toEqual({
      ok: false,
      reason: 'failed',
      detail: 'the part to archive is larger than the context window',
    });
    expect(provider.requests).toHaveLength(0);
    expect((await small.summarize(messages)).ok).toBe(true);
  });

  it('fills the template with times, focus and the transcript and returns the summary', async () => {
    const provider = new TextProvider(`Sure!\n${SUMMARY_HEADING}\nbody`);
    const outcome = await compressor(provider).summarize(messages, { focus: 'the login flow' });
    expect(outcome).toEqual({ ok: true, text: `${SUMMARY_HEADING}\nbody`, usage: USAGE });
    const prompt = provider.requests[0]?.user.map((segment) => segment.text).join('') ?? '';
    expect(prompt).toContain('From 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:03.000Z.');
    expect(prompt).toContain('The user asked this summary to focus on: the login flow');
    expect(prompt).toContain('[user] question 1\n\n[assistant] Thought: step 1');
    expect(prompt).toContain('[tool] {"status":"success","data":{}}');
    expect(prompt).toContain('{{unknown}}');
    expect(provider.requests[0]?.model).toBe('m');
  });

  it('inserts values literally', () => {
    expect(fillTemplate('a {{x}} b', { x: '$& $1' })).toBe('a $& $1 b');
  });

  it('times out with a provider that never yields and honours the signal', async () => {
    const provider = new HangingProvider();
    const outcome = await compressor(provider, 50).summarize(messages);
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    expect(provider.sawAbort).toBe(true);
  });

  it('times out even when the provider ignores the signal', async () => {
    const outcome = await compressor(new HangingProvider(true), 50).summarize(messages);
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = compressor(new HangingProvider(), 60_000).summarize(messages, { signal: controller.signal });
    controller.abort();
    expect(await pending).toEqual({ ok: false, reason: 'failed', detail: 'interrupted' });
  });

  it('rejects an empty or whitespace summary', async () => {
    expect(await compressor(new TextProvider('  \n ')).summarize(messages)).toMatchObject({
      ok: false,
      reason: 'empty',
    });
  });

  it('rejects a summary without the template heading', async () => {
    const outcome = await compressor(new TextProvider('Here is a summary: stuff happened.')).summarize(messages);
    expect(outcome).toMatchObject({ ok: false, reason: 'failed' });
    if (!outcome.ok) expect(outcome.detail).toMatch(/heading/);
  });

  it('turns provider errors into a one-line failure', async () => {
    const outcome = await compressor(new FailingProvider()).summarize(messages);
    expect(outcome).toEqual({ ok: false, reason: 'failed', detail: 'server error (HTTP 500)' });
  });

  it('strips a closing code fence', async () => {
    const outcome = await compressor(new TextProvider('```\n' + SUMMARY_HEADING + '\nbody\n```')).summarize(messages);
    expect(outcome).toMatchObject({ ok: true, text: `${SUMMARY_HEADING}\nbody` });
  });

  it('exports the exact fallback texts', () => {
    expect(SUMMARY_TIMEOUT_MESSAGE).toBe('Summary generation timed out, keeping recent history only.');
    expect(summaryFailedMessage('HTTP 500')).toBe('Summary generation failed: HTTP 500, keeping recent history only.');
  });

  it('works with the shipped summary prompt', async () => {
    const provider = new TextProvider(SUMMARY_HEADING);
    const real = new SummaryCompressor({ provider, model: 'm', timeoutMs: 5_000, template: loadPrompt('summary') });
    await real.summarize(messages, {});
    const prompt = provider.requests[0]?.user[0]?.text ?? '';
    expect(prompt).toContain('*(Contains context from 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:03.000Z)*');
    expect(prompt).toContain('### 📂 File System State (Snapshot)');
    expect(prompt).not.toMatch(/\{\{[a-z_]+\}\}/);
  });
});

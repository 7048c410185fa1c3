/**
 * The bill of one program's recorded requests, by one rule for all: a request's prompt is its tools, system text
 * and messages laid out in the order the API reads them (tools first), each part serialized as JSON; tokens are
 * floor(chars / 3) (the project's one estimator, bench/replay/prefix-cache.ts). Caching follows each API:
 * - Anthropic Messages: explicit cache_control breakpoints, simulated by the replay's PrefixCache (reads at 0.1x,
 *   writes at 1.25x the input price);
 * - OpenAI (chat, Responses) and Gemini: implicit caching, modelled as the longest prefix identical to an
 *   earlier request of the same program read at 0.1x, no write premium, no minimum length.
 * The "same rule" bill applies the implicit rule to every program, Anthropic ones included, so the layouts can be
 * compared without the difference between the APIs' cache pricing. Prices: one table (replayPrice()).
 */
import { costOf } from '../../src/providers/model-prices.js';
import { PrefixCache, tokensOfChars, type Segment } from '../replay/prefix-cache.js';
import { replayPrice } from '../replay/pricing.js';
import type { RecordedRequest } from './player.js';

type Json = Record<string, unknown>;

function stripCache(part: unknown): string {
  return JSON.stringify(part, (name, value: unknown) => (name === 'cache_control' ? undefined : value));
}

function hasBreakpoint(part: unknown): boolean {
  return typeof part === 'object' && part !== null && 'cache_control' in part;
}

function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** The prompt of a request as segments in the API's reading order (Anthropic: one per block, with breakpoints). */
export function promptSegments(request: RecordedRequest): Segment[] {
  const body = JSON.parse(request.raw) as Json;
  const part = (value: unknown): Segment => ({ text: stripCache(value), cacheBreakpoint: hasBreakpoint(value) });
  if (request.api === 'anthropic') {
    const blocks = (list(body.messages) as Json[]).flatMap((message) =>
      typeof message.content === 'string'
        ? [{ text: stripCache({ role: message.role, content: message.content }) }]
        : [{ text: String(message.role) }, ...list(message.content).map(part)],
    );
    return [...list(body.tools).map(part), ...list(body.system).map(part), ...blocks];
  }
  if (request.api === 'gemini') {
    const config = (body.generationConfig ?? {}) as Json;
    const system = body.systemInstruction ?? config.systemInstruction;
    return [...list(body.tools ?? config.tools), ...list(system), ...list(body.contents)].map(part);
  }
  if (request.api === 'responses') {
    return [...list(body.tools), ...list(body.instructions), ...list(body.input)].map(part);
  }
  return [...list(body.tools), ...list(body.messages)].map(part);
}

export interface ProgramBill {
  requests: number;
  agentRequests: number;
  sideRequests: number;
  inputTokens: number;
  cacheRead: number;
  cacheWritten: number;
  uncached: number;
  outputTokens: number;
  /** Tokens of the first main-loop request (side queries excluded). */
  firstRequestTokens: number;
  peakRequestTokens: number;
  /** Sum over requests of the bytes identical to the previous request's prompt prefix, and of all prompt bytes. */
  prefixBytes: number;
  promptBytes: number;
  /** Dollars under the program's own API cache rule, and under the implicit rule for everyone. */
  dollars: number;
  sameRuleDollars: number;
}

function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index += 1;
  return index;
}

export function billOf(requests: readonly RecordedRequest[]): ProgramBill {
  const price = replayPrice();
  const cache = new PrefixCache();
  const earlier: string[] = [];
  const bill: ProgramBill = {
    requests: requests.length,
    agentRequests: requests.filter((request) => request.agent).length,
    sideRequests: requests.filter((request) => !request.agent).length,
    inputTokens: 0,
    cacheRead: 0,
    cacheWritten: 0,
    uncached: 0,
    outputTokens: 0,
    firstRequestTokens: 0,
    peakRequestTokens: 0,
    prefixBytes: 0,
    promptBytes: 0,
    dollars: 0,
    sameRuleDollars: 0,
  };
  for (const request of requests) {
    const segments = promptSegments(request);
    const prompt = segments.map((segment) => segment.text).join('');
    const tokens = tokensOfChars(prompt.length);
    const output = tokensOfChars(request.replyText.length);
    const previous = earlier[earlier.length - 1];
    const samePrefix = previous === undefined ? 0 : commonPrefix(previous, prompt);
    bill.prefixBytes += Buffer.byteLength(prompt.slice(0, samePrefix));
    bill.promptBytes += Buffer.byteLength(prompt);
    const implicitRead = tokensOfChars(Math.max(0, ...earlier.map((text) => commonPrefix(text, prompt))));
    earlier.push(prompt);
    const implicit = { read: implicitRead, written: 0, uncached: tokens - implicitRead };
    const account = request.api === 'anthropic' ? cache.request(segments) : implicit;
    bill.inputTokens += tokens;
    bill.cacheRead += account.read;
    bill.cacheWritten += account.written;
    bill.uncached += account.uncached;
    bill.outputTokens += output;
    if (bill.firstRequestTokens === 0 && request.agent) bill.firstRequestTokens = tokens;
    bill.peakRequestTokens = Math.max(bill.peakRequestTokens, tokens);
    const dollars = (read: number, written: number, uncached: number): number =>
      costOf(
        {
          input_tokens: uncached,
          output_tokens: output,
          cache_creation_input_tokens: written,
          cache_read_input_tokens: read,
        },
        price,
      );
    bill.dollars += dollars(account.read, account.written, account.uncached);
    bill.sameRuleDollars += dollars(implicit.read, 0, implicit.uncached);
  }
  return bill;
}

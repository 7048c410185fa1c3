/**
 * A simulation of Anthropic's prompt prefix cache (BENCHMARKS.md "Prompt caching"). A request is a list of
 * segments (system blocks, then the content blocks that follow); some carry a cache breakpoint. A cache entry
 * is the exact text prefix ending at a breakpoint, identified by a hash chained over the segments.
 *
 * Per request:
 * - read: the longest prefix ending at a segment boundary, at most LOOKBACK_SEGMENTS segments before one of
 *   this request's breakpoints, that an earlier request wrote (the API looks back ~20 blocks from each
 *   breakpoint for a hit);
 * - written: from the end of the read prefix to this request's last breakpoint; every breakpoint prefix of
 *   this request then enters the cache;
 * - uncached: everything after the last breakpoint.
 * Cost-weighted tokens = 0.1·read + 1.25·written + 1·uncached. The 5-minute lifetime and the minimum
 * cacheable length are ignored. Tokens are floor(chars / 3) of the prefix lengths (the one estimator).
 */
import { createHash } from 'node:crypto';

/** The rule of estimateTokens (src/context/token-budget.ts), floor(chars / 3), applied to a length. */
export function tokensOfChars(chars: number): number {
  return Math.floor(chars / 3);
}

export interface Segment {
  text: string;
  cacheBreakpoint?: boolean;
}

export interface CacheAccount {
  tokens: number;
  read: number;
  written: number;
  uncached: number;
  /** 0.1·read + 1.25·written + 1·uncached */
  weighted: number;
}

export const CACHE_READ_FACTOR = 0.1;
export const CACHE_WRITE_FACTOR = 1.25;
export const LOOKBACK_SEGMENTS = 20;

export function weightedCost(read: number, written: number, uncached: number): number {
  return CACHE_READ_FACTOR * read + CACHE_WRITE_FACTOR * written + uncached;
}

export class PrefixCache {
  private readonly entries = new Set<string>();

  /** Accounts one request and stores its breakpoint prefixes. */
  request(segments: readonly Segment[]): CacheAccount {
    const hashes: string[] = [];
    const ends: number[] = [];
    let chain = '';
    let chars = 0;
    for (const segment of segments) {
      chain = createHash('sha1').update(chain).update('\u0000').update(segment.text).digest('hex');
      chars += segment.text.length;
      hashes.push(chain);
      ends.push(chars);
    }
    const breakpoints = segments.flatMap((segment, index) => (segment.cacheBreakpoint ? [index] : []));
    let readChars = 0;
    for (const breakpoint of breakpoints) {
      for (let index = breakpoint; index >= Math.max(0, breakpoint - LOOKBACK_SEGMENTS); index -= 1) {
        const end = ends[index] ?? 0;
        if (end <= readChars) break;
        if (this.entries.has(`${end}:${hashes[index]}`)) {
          readChars = end;
          break;
        }
      }
    }
    const lastBreakpoint = breakpoints[breakpoints.length - 1];
    const cachedChars = lastBreakpoint === undefined ? 0 : (ends[lastBreakpoint] ?? 0);
    for (const breakpoint of breakpoints) this.entries.add(`${ends[breakpoint]}:${hashes[breakpoint]}`);
    const tokens = tokensOfChars(chars);
    const read = tokensOfChars(readChars);
    const written = Math.max(0, tokensOfChars(Math.max(cachedChars, readChars)) - read);
    const uncached = tokens - read - written;
    return { tokens, read, written, uncached, weighted: weightedCost(read, written, uncached) };
  }

  clear(): void {
    this.entries.clear();
  }
}

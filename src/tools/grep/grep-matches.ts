import type { GrepMatch } from '../registry/tool-data.js';

export const GREP_MAX_TEXT = 300;
/** Matches returned to the model. */
export const GREP_MAX_RESULTS = 200;
/** Matched lines counted before the search stops (bounds time on patterns that match everything). */
export const GREP_MAX_SCANNED = 50_000;

/** Order shared by both engines so their results are identical: file path (code units), then line. */
export function compareMatches(a: GrepMatch, b: GrepMatch): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line;
}

/** The matched line as shown to the model: trimmed, cut to ~300 characters. */
export function matchText(line: string): string {
  const trimmed = line.trim();
  return trimmed.length <= GREP_MAX_TEXT ? trimmed : `${trimmed.slice(0, GREP_MAX_TEXT)}…`;
}

/** Keeps the first `cap` matches in sorted order in bounded memory while counting all of them. */
export class MatchCollector {
  private kept: GrepMatch[] = [];
  total = 0;

  constructor(private readonly cap = GREP_MAX_RESULTS) {}

  /** False once the scan limit is reached: the caller should stop searching. */
  add(match: GrepMatch): boolean {
    this.total += 1;
    this.kept.push(match);
    if (this.kept.length >= this.cap * 4) this.kept = this.kept.sort(compareMatches).slice(0, this.cap);
    return this.total < GREP_MAX_SCANNED;
  }

  get stoppedEarly(): boolean {
    return this.total >= GREP_MAX_SCANNED;
  }

  results(): GrepMatch[] {
    return this.kept.sort(compareMatches).slice(0, this.cap);
  }
}

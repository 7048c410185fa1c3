/**
 * Reading recorded tool outputs: mini-swe-agent wraps them as `<returncode>N</returncode>\n<output>…</output>`;
 * SWE-agent views number lines as `N:text`, `nl -ba` as `   N\ttext`.
 */

export interface UnwrappedOutput {
  exitCode: number | null;
  body: string;
}

const WRAPPED = /^\s*<returncode>(-?\d+)<\/returncode>\s*\n?(?:<output>\n?([\s\S]*?)\n?<\/output>)?/;

export function unwrapOutput(output: string, isError?: boolean): UnwrappedOutput {
  const match = WRAPPED.exec(output);
  if (match !== null) return { exitCode: Number(match[1]), body: match[2] ?? '' };
  return { exitCode: isError === true ? 1 : isError === false ? 0 : null, body: output };
}

export function outputLines(body: string): string[] {
  const lines = body.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Turns file-view output into Read's numbered content (`<n>\t<text>` per line). Lines already numbered by
 * `nl -ba` or SWE-agent's `N:` keep their numbers; other lines are numbered from `startLine`. Returns the
 * numbered lines and the first/last line numbers.
 */
export function numberedLines(
  body: string,
  startLine: number,
): { content: string; first: number; last: number; count: number } {
  const numbered: string[] = [];
  let next = startLine;
  let first: number | undefined;
  for (const line of outputLines(body)) {
    const nl = /^\s*(\d+)\t(.*)$/.exec(line) ?? /^(\d+):(.*)$/.exec(line);
    if (nl === null && /^\[File: |^\(\d+ more lines (above|below)\)$|^\(Open file:|^\(Current directory:/.test(line)) {
      continue; // SWE-agent window chrome, not file content
    }
    const number = nl !== null ? Number(nl[1]) : next;
    const text = nl !== null ? (nl[2] ?? '') : line;
    numbered.push(`${number}\t${text}`);
    first ??= number;
    next = number + 1;
  }
  return { content: numbered.join('\n'), first: first ?? startLine, last: next - 1, count: numbered.length };
}

export interface ParsedMatch {
  file: string;
  line: number;
  text: string;
}

/** Parses `file:line:text` grep output; lines of another shape are skipped. */
export function grepMatches(body: string): { matches: ParsedMatch[]; otherLines: number } {
  const matches: ParsedMatch[] = [];
  let otherLines = 0;
  for (const line of outputLines(body)) {
    const match = /^([^:\n]+):(\d+):(.*)$/.exec(line);
    if (match === null) otherLines += 1;
    else matches.push({ file: match[1] ?? '', line: Number(match[2]), text: match[3] ?? '' });
  }
  return { matches, otherLines };
}

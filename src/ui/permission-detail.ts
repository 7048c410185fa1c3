/**
 * The command or diff of a permission request as the rows the prompt shows: the whole of it, control characters
 * shown visibly, tabs expanded, and long lines wrapped (never cut) so the window can scroll over every row.
 */
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import { EXIT_PLAN_MODE } from '../tools/planning/exit-plan-mode.js';
import type { ApprovalRequest } from '../tools/registry/tool-context.js';
import { diffLines } from './components/diff-view.js';
import type { DetailRow } from './detail-row.js';
import { planRows } from './plan-rows.js';
import { textWidth } from './text-width.js';

export type { DetailRow } from './detail-row.js';

function looksLikeDiff(detail: string): boolean {
  return /^(@@|---|\+\+\+)/m.test(detail);
}

/** Splits one line into pieces of at most `width` columns. */
export function wrapLine(line: string, width: number): string[] {
  if (width <= 0 || textWidth(line) <= width) return [line];
  const pieces: string[] = [];
  let piece = '';
  for (const char of line) {
    if (textWidth(piece + char) > width) {
      pieces.push(piece);
      piece = '';
    }
    piece += char;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

export function detailRows(request: ApprovalRequest, width: number): DetailRow[] {
  const detail = neutralizeControlSequences(request.detail ?? '')
    .replace(/\t/g, '    ')
    .replace(/\n+$/, '');
  if (!detail.trim()) return [];
  const rows: DetailRow[] = [];
  if (request.tool === EXIT_PLAN_MODE) {
    for (const row of planRows(detail))
      for (const piece of wrapLine(row.text, width)) rows.push({ ...row, text: piece });
    return rows;
  }
  if (looksLikeDiff(detail)) {
    for (const line of diffLines(detail)) {
      const text = line.kind === 'remove' ? `−${line.text.slice(1)}` : line.text;
      const style: Omit<DetailRow, 'text'> =
        line.kind === 'add'
          ? { color: 'green' }
          : line.kind === 'remove'
            ? { color: 'red' }
            : line.kind === 'hunk'
              ? { color: 'cyan', dim: true }
              : { dim: true };
      for (const piece of wrapLine(text, width)) rows.push({ text: piece, ...style });
    }
    return rows;
  }
  for (const line of detail.split('\n')) for (const piece of wrapLine(line, width)) rows.push({ text: piece });
  return rows;
}

/**
 * How many detail rows fit: the prompt's borders, markers and options take about 10 rows, the live step above it and
 * the status line about 6 more. The whole redrawn area must stay shorter than the screen, or Ink redraws the screen
 * from scratch on every frame.
 */
export function detailWindow(screenRows: number): number {
  return Math.max(4, screenRows - 18);
}

/** A scroll offset kept inside the rows. */
export function clampScroll(scroll: number, total: number, window: number): number {
  return Math.max(0, Math.min(scroll, Math.max(0, total - window)));
}

/**
 * The plan in the approval dialog, as Markdown reads: headings in colour without their `#`s, list items with
 * bullets, task boxes as ☐/☑, emphasis and inline-code markers dropped, fenced code dimmed. Rows, not Ink
 * elements, so the dialog can still scroll over every row (permission-detail.ts wraps them).
 */
import type { DetailRow } from './detail-row.js';

function inline(text: string): string {
  return text
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .replace(/(^|[^\w*])\*([^*\s][^*]*)\*/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1');
}

/** One line of the plan as a styled row (before wrapping); `fenced` tells whether it lies inside a ``` block. */
export function planRow(line: string, fenced: boolean): DetailRow {
  if (fenced) return { text: `  ${line}`, dim: true };
  const heading = /^(#{1,6})\s+(.*)$/.exec(line);
  if (heading) return { text: inline(heading[2] ?? ''), color: 'cyan' };
  const task = /^(\s*)[-*+]\s+\[([ xX])\]\s+(.*)$/.exec(line);
  if (task) return { text: `${task[1] ?? ''}${task[2] === ' ' ? '☐' : '☑'} ${inline(task[3] ?? '')}` };
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) return { text: `${bullet[1] ?? ''}• ${inline(bullet[2] ?? '')}` };
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return { text: '─'.repeat(20), dim: true };
  return { text: inline(line) };
}

/** Every line of the plan as rows; fence lines themselves are dropped. */
export function planRows(plan: string): DetailRow[] {
  const rows: DetailRow[] = [];
  let fenced = false;
  for (const line of plan.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    rows.push(planRow(line, fenced));
  }
  return rows;
}

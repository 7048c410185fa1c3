import { loadDiff } from '../registry/lazy-modules.js';

export interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all: boolean;
}

export type EditOutcome = { ok: true; content: string; replacements: number } | { ok: false; message: string };

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/** "\n" → "\r\n" where not already preceded by "\r". */
function toCrlf(text: string): string {
  return text.replace(/(?<!\r)\n/g, '\r\n');
}

function notFoundHint(content: string, oldString: string): string {
  if (/^\s*\d+\t/m.test(oldString))
    return ' It seems to include Read line-number prefixes ("12\\t"); pass the file text only.';
  const squeezed = (text: string): string => text.replace(/\s+/g, ' ').trim();
  if (squeezed(oldString) !== '' && squeezed(content).includes(squeezed(oldString))) {
    return ' The text exists with different whitespace or indentation; copy it exactly from a fresh Read.';
  }
  return ' Read the file again and copy the exact text to replace.';
}

/**
 * Applies one replacement to `content`. old_string must occur exactly once unless replace_all. In a CRLF file,
 * strings written with "\n" are matched and inserted as "\r\n" so the file keeps its line endings.
 */
export function applyEdit(content: string, edit: EditSpec): EditOutcome {
  if (edit.old_string === '')
    return { ok: false, message: 'old_string is empty; to create or replace a whole file use Write.' };
  if (edit.old_string === edit.new_string)
    return { ok: false, message: 'old_string and new_string are identical; nothing would change.' };
  let oldString = edit.old_string;
  let newString = edit.new_string;
  if (content.includes('\r\n') && !oldString.includes('\r')) {
    const crlfOld = toCrlf(oldString);
    if (crlfOld === oldString || content.includes(crlfOld)) {
      oldString = crlfOld;
      newString = toCrlf(newString);
    }
  }
  const count = countOccurrences(content, oldString);
  if (count === 0) return { ok: false, message: `old_string was not found.${notFoundHint(content, edit.old_string)}` };
  if (count > 1 && !edit.replace_all) {
    return {
      ok: false,
      message: `old_string was found ${count} times; add surrounding context to make it unique, or set replace_all: true to replace all ${count}.`,
    };
  }
  // split/join: no "$&"-style replacement patterns, every occurrence replaced literally.
  const next = edit.replace_all ? content.split(oldString).join(newString) : replaceOnce(content, oldString, newString);
  return { ok: true, content: next, replacements: edit.replace_all ? count : 1 };
}

function replaceOnce(content: string, oldString: string, newString: string): string {
  const at = content.indexOf(oldString);
  return content.slice(0, at) + newString + content.slice(at + oldString.length);
}

/**
 * A diff is for a person to read before approving: past these bounds (a rewritten 1 MB file) it says what
 * changed in one line instead, so no diff ever blocks the event loop (Ctrl-C keeps working) or floods the prompt.
 */
export const DIFF_MAX_INPUT_CHARS = 1_000_000;
export const DIFF_TIMEOUT_MS = 300;
export const DIFF_MAX_LINES = 2_000;

function sizeOf(text: string): string {
  return `${lineCount(text).toLocaleString('en-US')} lines, ${Buffer.byteLength(text, 'utf8').toLocaleString('en-US')} bytes`;
}

/** The diff's `---`/`+++` names: `a/src/x.ts` in the project, the absolute path itself in an added directory. */
function side(prefix: 'a/' | 'b/', path: string): string {
  return path.startsWith('/') ? path : `${prefix}${path}`;
}

/** The one-line stand-in for a diff too big or too slow to compute. */
export function diffSummary(relativePath: string, before: string | undefined, after: string, why: string): string {
  const from = before === undefined ? 'the current file' : before === '' ? 'nothing' : sizeOf(before);
  return [
    `--- ${before === '' ? '/dev/null' : side('a/', relativePath)}`,
    `+++ ${side('b/', relativePath)}`,
    `[diff not shown: ${why}; ${from} → ${sizeOf(after)}]`,
  ].join('\n');
}

/**
 * Unified diff (3 lines of context) without the "Index:" banner; "\r" is not shown. Bounded in input size, time
 * and output lines; `before` undefined means the old text was too big to load.
 */
export async function unifiedDiff(relativePath: string, before: string | undefined, after: string): Promise<string> {
  if (before === undefined || before.length + after.length > DIFF_MAX_INPUT_CHARS) {
    return diffSummary(relativePath, before, after, 'the change is too large to diff');
  }
  const { structuredPatch } = await loadDiff();
  const patch = structuredPatch(relativePath, relativePath, before, after, '', '', {
    context: 3,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (patch === undefined) return diffSummary(relativePath, before, after, 'the change is too complex to diff quickly');
  const lines = [`--- ${before === '' ? '/dev/null' : side('a/', relativePath)}`, `+++ ${side('b/', relativePath)}`];
  let shown = 0;
  let hidden = 0;
  for (const hunk of patch.hunks) {
    const body = [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines];
    for (const line of body) {
      if (shown < DIFF_MAX_LINES) lines.push(line.replace(/\r$/, ''));
      else hidden += 1;
      shown += 1;
    }
  }
  if (hidden > 0) lines.push(`[… ${hidden.toLocaleString('en-US')} more diff lines not shown]`);
  return lines.join('\n');
}

export function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = countOccurrences(text, '\n');
  return text.endsWith('\n') ? newlines : newlines + 1;
}

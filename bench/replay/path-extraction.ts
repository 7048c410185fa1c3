/**
 * The file paths a recorded action names (the memory figure, BENCHMARKS.md "Memory"). It reads only the recorded
 * call, never a strategy's request, so every strategy is measured against the same paths.
 *
 * Rule:
 * 1. The text is every string value of the call's input (the shell command, or `path`, `file_name` …).
 * 2. It is cut into words at white space, quotes, backquotes and `; | & < > ( ) [ ] { } , = :` (so `f.py:12`,
 *    `--file=f.py` and `"f.py"` give `f.py`).
 * 3. A word is a file path when its last `/`-separated part is `name.ext` (`ext` a letter then 0–7 letters or
 *    digits) and either it contains a `/` or `ext` is a common file extension (FILE_EXTENSIONS). That keeps
 *    `src/a.py`, `/testbed/setup.cfg` and `fields.py`, and leaves out Python attribute access such as `np.arange`,
 *    version numbers, options, sed expressions (`s/a/b/g`) and directories.
 * 4. Words containing anything but letters, digits, `_ . / + -`, and words starting with `-` or `//` (the rest of
 *    a URL after `https:`), are not paths. A leading `./` is dropped. Duplicates are dropped, first order kept.
 */
import type { RecordedCall } from './trajectory.js';

export const FILE_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'py pyi pyx c h cc cpp hpp rs go java kt rb php js mjs cjs jsx ts tsx json yaml yml toml ini cfg conf ' +
    'md rst txt csv tsv xml html css scss sh bash zsh sql lock in log diff patch ipynb enc zip tar gz'
  ).split(' '),
);

const WORD_BREAKS = /[\s'"`;|&<>()[\]{},=:]+/;
const PATH_CHARS = /^[A-Za-z0-9_./+-]+$/;
const NAME_DOT_EXT = /^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*\.([A-Za-z][A-Za-z0-9]{0,7})$/;

function stringsOf(value: unknown, into: string[]): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsOf(item, into);
  return into;
}

/** Whether one word (already cut at the word breaks) is a file path; returns it normalised, or undefined. */
export function asFilePath(word: string): string | undefined {
  if (word.startsWith('-') || word.startsWith('//') || !PATH_CHARS.test(word)) return undefined;
  const path = word.replace(/^(?:\.\/)+/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  const match = NAME_DOT_EXT.exec(last);
  if (match === null) return undefined;
  const extension = (match[1] ?? '').toLowerCase();
  return path.includes('/') || FILE_EXTENSIONS.has(extension) ? path : undefined;
}

/** The file paths named in a text, by the rule above. */
export function pathsInText(text: string): string[] {
  const found = new Set<string>();
  for (const word of text.split(WORD_BREAKS)) {
    const path = asFilePath(word);
    if (path !== undefined) found.add(path);
  }
  return [...found];
}

/** The file paths a recorded call names. */
export function pathsNamedBy(call: RecordedCall): string[] {
  return pathsInText(stringsOf(call.input, []).join('\n'));
}

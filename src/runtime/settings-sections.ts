/**
 * The system-prompt sections that Claude Code's settings keys add (issue 40): the commit attribution
 * (`includeCoAuthoredBy` / `attribution.commit`) and, in output-styles.ts, the output style.
 */

/** What the model is told about the commit messages it writes; undefined when the trailer is off (''). */
export function attributionSection(trailer: string): string | undefined {
  if (trailer === '') return undefined;
  return [
    '# Commit attribution',
    'When you write a git commit message, end it with a blank line followed by exactly this text:',
    trailer,
  ].join('\n');
}

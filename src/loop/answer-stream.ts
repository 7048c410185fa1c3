/**
 * What of a reply still being streamed is already the final answer, so a front end can show it as it arrives.
 * Text protocol: the answer is the text after `Finish[` on the first line that starts with `Action:` (the line
 * that decides, DESIGN.md "Tool protocol"); a first action naming a tool means there is no answer in this reply.
 * The streamed text is provisional: the `turn_end` answer replaces it (the parser decides where it ends).
 */

/** The first line that starts an action, as the parser recognises it (`Action:`, `**Action:**`, `- Action :`). */
const FIRST_ACTION_LINE = /(?:^|\n)[ \t>_#-]*\**Action\**\s*:\**\s*/;

/**
 * The answer text streamed so far, or undefined while the reply is not (yet) known to be a `Finish[`.
 * Returns the raw text after `Finish[` (a trailing `]` may be the closing bracket; callers hold it back).
 */
export function streamedAnswer(raw: string): string | undefined {
  const action = FIRST_ACTION_LINE.exec(raw);
  if (!action) return undefined;
  const rest = raw.slice(action.index + action[0].length);
  const finish = /^Finish\s*\[/i.exec(rest);
  if (!finish) return undefined;
  return rest.slice(finish[0].length);
}

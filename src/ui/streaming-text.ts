/**
 * What the live area may show of a reply still arriving: never a partial word (`✻ Though`), never the protocol's
 * labels, and for a streaming answer the blocks that are already complete (they go to the transcript at once, so a
 * long answer is read while it arrives) apart from the block still growing.
 */
import { Lexer } from 'marked';
import { streamedAnswer } from '../loop/answer-stream.js';

/** `text` up to its last whitespace: the words that are complete. Empty when no word is complete yet. */
export function completeWords(text: string): string {
  const match = /\s(?=\S*$)/.exec(text);
  return match ? text.slice(0, match.index + 1) : '';
}

const ACTION_LINE = /(?:^|\n)[ \t>_#-]*\**Action\**\s*:/;
const THOUGHT_LABEL = /^\s*\**Thought\**\s*:\**\s*/i;

/**
 * The thought of a streaming step: the text before the action line without its `Thought:` label. Until the action
 * line arrives, only complete words count, and a label still arriving (`Thou`) shows nothing. `final`: the text
 * will not grow any more (an interrupted step), so its last word counts too.
 */
export function liveThought(raw: string, { final = false }: { final?: boolean } = {}): string {
  const action = ACTION_LINE.exec(raw);
  const before = action ? raw.slice(0, action.index) : final ? raw : completeWords(raw);
  const bare = before
    .trim()
    .replace(/^\*+|\*+$/g, '')
    .toLowerCase();
  if ('thought:'.startsWith(bare)) return '';
  return before.replace(THOUGHT_LABEL, '').trim();
}

/**
 * The answer text of a streaming step that is safe to show: complete words only, without a `]` that may be the
 * closing bracket of `Finish[…]`. Undefined when the step is not (yet) a final answer.
 */
export function liveAnswer(raw: string): string | undefined {
  const answer = streamedAnswer(raw);
  if (answer === undefined) return undefined;
  return completeWords(answer.replace(/\]\s*$/, ''));
}

/**
 * The longest prefix of `markdown` made of whole blocks: every block except the last, which may still grow.
 * Returns '' when fewer than two blocks have started.
 */
export function completeBlocks(markdown: string): string {
  const tokens = new Lexer({ gfm: true }).lex(markdown);
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]?.type === 'space') last -= 1;
  let prefix = '';
  for (let index = 0; index < last; index += 1) prefix += tokens[index]?.raw ?? '';
  return markdown.startsWith(prefix) ? prefix : '';
}

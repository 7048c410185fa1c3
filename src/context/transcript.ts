/**
 * The L3 transcript format (spec E1; DESIGN.md "Prompt"), shared by the ContextBuilder and the
 * SummaryCompressor: one entry per message, `[role] content`, entries separated by a blank line. Tool
 * messages hold compressed JSON; summaries are rendered as `[system]` because they are archived context,
 * not something a user said.
 *
 * Native tool use renders the same history in its own form (issue 30): history stores every step as the text
 * protocol writes it (`Thought: …` / `Action: Tool[{…}]`), but a model that calls tools natively must not see that
 * form, or it imitates it. There an assistant step shows only its words, and each result is labelled with the call
 * it answers: `[tool Read {"path":"a.ts"}] {compressed result}`, a record no model writes as its own reply.
 */
import type { Message, Role } from './message.js';

const LABELS: Readonly<Record<Role, string>> = {
  user: '[user]',
  assistant: '[assistant]',
  tool: '[tool]',
  summary: '[system]',
};

export const TRANSCRIPT_SEPARATOR = '\n\n';

/**
 * Where the full tool results are found by reference (the engine's tool memory, cached in the process). A tool message
 * that is neither `compressed` nor `shrunk` and carries a `ref` shows the full result while one is found
 * (DESIGN.md "No forgetting without pressure"); otherwise its stored (compressed) content.
 */
export interface FullResults {
  get(ref: string): string | undefined;
}

/** The text a message shows in the prompt: a whole tool result's full text, else the stored content. */
export function messageBody(message: Message, full?: FullResults): string {
  const { metadata } = message;
  if (full === undefined || message.role !== 'tool' || metadata.ref === undefined) return message.content;
  if (metadata.compressed === true || metadata.shrunk === true) return message.content;
  return full.get(metadata.ref) ?? message.content;
}

/** `text`: the E1 transcript; `native`: the same without any text-protocol form (see above). */
export type TranscriptForm = 'text' | 'native';

export function renderMessage(message: Message, full?: FullResults): string {
  return `${LABELS[message.role]} ${messageBody(message, full)}`;
}

/** Linear in the total size: one join over all entries. */
export function renderTranscript(messages: readonly Message[], full?: FullResults): string {
  return messages.map((message) => renderMessage(message, full)).join(TRANSCRIPT_SEPARATOR);
}

const ACTION_LINE = /^\s*(?:\*\*)?Action\s*:/;
const THOUGHT_LABEL = /^\s*(?:\*\*)?Thought\s*:(?:\*\*)?\s*/;
const FINISH = /^\s*(?:\*\*)?Action\s*:(?:\*\*)?\s*Finish\[([\s\S]*)\]\s*$/;

/** A stored reply without its protocol labels: the thought's words, and a Finish's answer. */
export function replyWords(content: string): string {
  const lines = content.split('\n');
  const at = lines.findIndex((line) => ACTION_LINE.test(line));
  const before = (at < 0 ? lines : lines.slice(0, at)).join('\n').replace(THOUGHT_LABEL, '').trim();
  const finish = at < 0 ? null : FINISH.exec(lines.slice(at).join('\n'));
  return [before, finish?.[1]?.trim() ?? ''].filter((part) => part !== '').join('\n');
}

/** One message in the native form, or undefined when nothing of it is shown (a step with no words of its own). */
export function renderNativeMessage(message: Message, full?: FullResults): string | undefined {
  const { role, metadata } = message;
  if (role === 'tool') {
    const action = metadata.action;
    const call =
      action === undefined ? (metadata.toolName ?? 'tool') : `${action.tool} ${JSON.stringify(action.input)}`;
    return `[tool ${call}] ${messageBody(message, full)}`;
  }
  // A direct answer is the model's own text, shown as written; every other stored reply may carry protocol labels.
  if (role !== 'assistant' || metadata.roundEnd === 'answer') return renderMessage(message);
  const words = replyWords(message.content);
  return words === '' ? undefined : `${LABELS.assistant} ${words}`;
}

export function renderTranscriptAs(messages: readonly Message[], form: TranscriptForm, full?: FullResults): string {
  if (form === 'text') return renderTranscript(messages, full);
  const entries: string[] = [];
  for (const message of messages) {
    const entry = renderNativeMessage(message, full);
    if (entry !== undefined) entries.push(entry);
  }
  return entries.join(TRANSCRIPT_SEPARATOR);
}

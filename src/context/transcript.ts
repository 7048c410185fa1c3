/**
 * The L3 transcript format (spec E1; DESIGN.md "Prompt"), shared by the ContextBuilder and the
 * SummaryCompressor: one entry per message, `[role] content`, entries separated by a blank line. Tool
 * messages hold compressed JSON; summaries are rendered as `[system]` because they are archived context,
 * not something a user said.
 */
import type { Message, Role } from './message.js';

const LABELS: Readonly<Record<Role, string>> = {
  user: '[user]',
  assistant: '[assistant]',
  tool: '[tool]',
  summary: '[system]',
};

export const TRANSCRIPT_SEPARATOR = '\n\n';

export function renderMessage(message: Message): string {
  return `${LABELS[message.role]} ${message.content}`;
}

/** Linear in the total size: one join over all entries. */
export function renderTranscript(messages: readonly Message[]): string {
  return messages.map(renderMessage).join(TRANSCRIPT_SEPARATOR);
}

/**
 * `/export`: the conversation as Markdown, as a person reads it (the user's lines, the answers, each tool call's
 * result in a fenced block, archived rounds as their summaries). Text is written as stored: the file is the
 * person's own copy, not a terminal, so nothing is neutralised here.
 */
import type { Message } from '../context/message.js';

/** A fence longer than any run of backticks in `text`, so a result holding ``` cannot close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(longest + 1);
}

function section(message: Message): string {
  const text = message.content.trimEnd();
  if (message.role === 'user') return `## User\n\n${text}`;
  if (message.role === 'assistant') return `## Assistant\n\n${text}`;
  if (message.role === 'summary') return `## Summary of earlier rounds\n\n${text}`;
  const fence = fenceFor(text);
  return `### ${message.metadata.toolName ?? 'Tool'} result\n\n${fence}\n${text}\n${fence}`;
}

export function conversationMarkdown(history: readonly Message[], title: { sessionId: string; model: string }): string {
  const head = `# mca conversation ${title.sessionId}\n\nModel: ${title.model}`;
  return `${[head, ...history.map(section)].join('\n\n')}\n`;
}

/** The file `/export` writes when no name is given: `mca-conversation-<UTC time>.md` in the project. */
export function defaultExportName(now: Date = new Date()): string {
  return `mca-conversation-${now.toISOString().slice(0, 19).replace(/[:T]/g, '-')}.md`;
}

/** OSC 52: asks the terminal to put `text` on the clipboard (only when the person asks for it). */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}

/**
 * `/export`: the conversation as Markdown, as a person reads it (issue 41): the user's own words (no
 * `<system-reminder>` blocks mca added, a `!` command as the line the user typed), the assistant's words without
 * protocol labels (`Thought:` / `Action:`), each tool call as one readable line with its result folded in a
 * `<details>` block (the result's fields as lines, not raw JSON), archived rounds as their summaries. Text is written
 * as stored otherwise: the file is the person's own copy, not a terminal, so nothing is neutralised here.
 */
import type { Message } from '../context/message.js';
import { replyWords } from '../context/transcript.js';
import { shellCommandsOf, userWords } from '../text/user-words.js';

/** A fence longer than any run of backticks in `text`, so a result holding ``` cannot close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(longest + 1);
}

/** The user's words: mca's reminders removed, each `!` command they ran shown as they typed it. */
function userSection(content: string): string {
  const commands = shellCommandsOf(content).map((command) => `\`! ${command}\``);
  return [...commands, userWords(content)].filter((part) => part !== '').join('\n\n');
}

const ARGUMENT_KEYS = ['command', 'path', 'file_path', 'pattern', 'url', 'query', 'skill', 'description'] as const;

/** `Read src/a.ts`, `Bash npm test`: the tool and its most telling argument, on one line. */
export function callLine(tool: string, input: unknown): string {
  if (input === null || typeof input !== 'object') return tool;
  const record = input as Record<string, unknown>;
  const key = ARGUMENT_KEYS.find((name) => typeof record[name] === 'string' && record[name] !== '');
  const value = key ? String(record[key]) : '';
  const oneLine = value.split('\n')[0] ?? '';
  const shown = oneLine.length > 120 ? `${oneLine.slice(0, 119)}…` : oneLine;
  return shown === '' ? tool : `${tool} ${shown}${oneLine !== value ? ' …' : ''}`;
}

/** A JSON value as readable lines: `key: value`, nested keys indented, long strings kept whole on their own lines. */
function readableLines(value: unknown, indent = ''): string[] {
  if (value === null || typeof value !== 'object') return [`${indent}${String(value)}`];
  if (Array.isArray(value)) return value.flatMap((entry) => readableLines(entry, indent));
  return Object.entries(value as Record<string, unknown>).flatMap(([key, entry]) => {
    if (typeof entry === 'string' && entry.includes('\n')) return [`${indent}${key}:`, entry];
    if (entry !== null && typeof entry === 'object')
      return [`${indent}${key}:`, ...readableLines(entry, `${indent}  `)];
    return [`${indent}${key}: ${String(entry)}`];
  });
}

/** A stored tool result (compressed JSON, or plain text) as a folded block and its status word. */
function resultBlock(content: string): { status: string; body: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return { status: '', body: content.trimEnd() };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { status: '', body: readableLines(parsed).join('\n') };
  }
  const { status, error, data, ...rest } = parsed as Record<string, unknown>;
  const errorText =
    error !== null && typeof error === 'object' ? String((error as Record<string, unknown>).message ?? '') : '';
  const lines = [...(errorText ? [`error: ${errorText}`] : []), ...readableLines(data ?? rest)];
  return { status: typeof status === 'string' ? status : '', body: lines.join('\n').trimEnd() };
}

function toolSection(message: Message): string {
  const action = message.metadata.action;
  const line = callLine(action?.tool ?? message.metadata.toolName ?? 'Tool', action?.input);
  const { status, body } = resultBlock(message.content);
  const mark = status === 'error' ? ' (failed)' : '';
  if (body === '') return `- ${line}${mark}`;
  const fence = fenceFor(body);
  return `- ${line}${mark}\n\n  <details><summary>result</summary>\n\n${fence}\n${body}\n${fence}\n\n  </details>`;
}

/** The assistant's words of one stored step, or '' when the step only called a tool. */
function assistantWords(message: Message): string {
  if (message.metadata.roundEnd === 'answer') return message.content.trim();
  return replyWords(message.content);
}

export function conversationMarkdown(history: readonly Message[], title: { sessionId: string; model: string }): string {
  const parts = [`# mca conversation ${title.sessionId}`, `Model: ${title.model}`];
  let speaker: 'user' | 'assistant' | undefined;
  const heading = (who: 'user' | 'assistant'): void => {
    if (speaker !== who) parts.push(who === 'user' ? '## User' : '## Assistant');
    speaker = who;
  };
  for (const message of history) {
    if (message.role === 'summary') {
      parts.push(`## Summary of earlier rounds\n\n${message.content.trim()}`);
      speaker = undefined;
    } else if (message.role === 'user') {
      const words = userSection(message.content);
      if (words === '') continue;
      heading('user');
      parts.push(words);
    } else if (message.role === 'assistant') {
      const words = assistantWords(message);
      if (words === '') continue;
      heading('assistant');
      parts.push(words);
    } else {
      heading('assistant');
      parts.push(toolSection(message));
    }
  }
  return `${parts.join('\n\n')}\n`;
}

/** The file name `/export` suggests: `mca-conversation-<UTC time>.md`. */
export function defaultExportName(now: Date = new Date()): string {
  return `mca-conversation-${now.toISOString().slice(0, 19).replace(/[:T]/g, '-')}.md`;
}

/** OSC 52: asks the terminal to put `text` on the clipboard (only when the person asks for it). */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}

/**
 * The deterministic archive entry for rounds that leave the prompt without a model-written summary (the summary
 * timed out or failed, or the degradation ladder dropped rounds): per round, the user's request and the files
 * and commands it touched, taken from the stored actions. Nothing leaves the prompt without an entry like this.
 */
import type { Message } from './message.js';
import { toRounds } from './message.js';

export const ARCHIVE_NOTE_HEADING = '## 📌 Archived rounds (no summary available)';

const LIMITS = Object.freeze({ requestChars: 300, files: 12, commands: 6, commandChars: 120 });

function oneLine(text: string, max: number): string {
  const line = text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function inputOf(message: Message): Record<string, unknown> {
  const input = message.metadata.action?.input;
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

function exitCodeOf(message: Message): string {
  try {
    const parsed = JSON.parse(message.content) as { data?: { exit_code?: unknown } };
    const code = parsed.data?.exit_code;
    return typeof code === 'number' ? ` (exit ${code})` : '';
  } catch {
    return '';
  }
}

function listed(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} (+${items.length - max} more)` : shown;
}

/** One line per round: `- Round N: "<request>"; files: a, b; commands: npm test (exit 1)`. */
export function archiveNote(messages: readonly Message[]): string {
  const lines = [ARCHIVE_NOTE_HEADING, ''];
  for (const round of toRounds(messages)) {
    const user = round.messages.find((message) => message.role === 'user');
    const files = new Set<string>();
    const commands: string[] = [];
    for (const message of round.messages) {
      if (message.role !== 'tool') continue;
      const input = inputOf(message);
      if (typeof input.path === 'string' && message.metadata.toolName !== 'LS') files.add(input.path);
      if (message.metadata.toolName === 'Bash' && typeof input.command === 'string') {
        commands.push(`${oneLine(input.command, LIMITS.commandChars)}${exitCodeOf(message)}`);
      }
    }
    const parts = [`- Round ${round.round}: "${oneLine(user?.content ?? '', LIMITS.requestChars)}"`];
    if (files.size > 0) parts.push(`files: ${listed([...files], LIMITS.files)}`);
    if (commands.length > 0) parts.push(`commands: ${listed(commands, LIMITS.commands)}`);
    lines.push(parts.join('; '));
  }
  return lines.join('\n');
}

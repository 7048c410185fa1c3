/**
 * Where a submitted line goes, decided once from what the front can do (SessionDriverOptions): a built-in slash
 * command the front shows, one the driver runs itself (`/compact`, `/init`), a custom command, a `# note`, a `!`
 * shell line, or a prompt for the model. A capability the front lacks sends its lines to the model as typed (`-p`).
 */
import { shellCommandOf } from './shell-lines.js';
import type { SessionDriverOptions } from './session-driver-options.js';
import { onlyShows, parseSlashCommand, SLASH_COMMANDS, type ParsedSlash } from './slash-parse.js';

export type LineRoute =
  | { kind: 'slash'; parsed: ParsedSlash }
  | { kind: 'own'; parsed: Extract<ParsedSlash, { kind: 'command' }> }
  | { kind: 'custom'; name: string; args: string; model?: string }
  | { kind: 'memory'; note: string }
  | { kind: 'shell'; command: string }
  | { kind: 'prompt' };

type Front = Pick<SessionDriverOptions, 'slash' | 'driverCommands' | 'customCommands' | 'memoryNote' | 'shellLines'>;

/** A built-in command as the front routes it: all of them with a slash handler, else only the driver's own. */
function slashOf(text: string, front: Front): LineRoute | undefined {
  const parsed = parseSlashCommand(text);
  if (!parsed) return undefined;
  if (front.slash) return { kind: 'slash', parsed };
  if (!front.driverCommands || parsed.kind !== 'command') return undefined;
  const own = SLASH_COMMANDS.some((command) => command.name === parsed.name && command.driverRuns);
  return own ? { kind: 'own', parsed } : undefined;
}

/** The note of a `# note` line when the front takes them: one line, starting with `#`. */
function memoryNoteOf(text: string, front: Front): string | undefined {
  if (!front.memoryNote) return undefined;
  const line = text.trim();
  if (!line.startsWith('#') || line.includes('\n')) return undefined;
  return line.replace(/^#+/, '').trim();
}

export function routeLine(text: string, front: Front): LineRoute {
  const slash = slashOf(text, front);
  // A built-in command wins over a custom command of the same name.
  const builtIn = slash?.kind === 'own' || (slash?.kind === 'slash' && slash.parsed.kind === 'command');
  const custom = builtIn ? undefined : front.customCommands?.match(text);
  if (custom) return { kind: 'custom', ...custom };
  if (slash) return slash;
  const note = memoryNoteOf(text, front);
  if (note !== undefined) return { kind: 'memory', note };
  const command = front.shellLines ? shellCommandOf(text) : undefined;
  if (command !== undefined) return { kind: 'shell', command };
  return { kind: 'prompt' };
}

/** A line that only shows something (a command the table marks `shows`, a `# note`) runs at once while busy. */
export function runsAtOnce(route: LineRoute): boolean {
  return (route.kind === 'slash' && onlyShows(route.parsed)) || route.kind === 'memory';
}

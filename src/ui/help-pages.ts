/**
 * `/help` in pages that fit a 24-row terminal (issue 41): the built-in commands (from the one slash-command table),
 * the custom commands and the keys, cut into pages of at most HELP_PAGE_ROWS entries. `/help` shows page 1 and each
 * page's footer names the next; `/help 2`, `/help keys` or `/help custom` open a page directly.
 */
import { SLASH_COMMANDS, type SlashCommandEntry } from './slash-commands.js';

/** Entries per page: with the title, the footer, the margin and the prompt box a page stays within 24 rows. */
export const HELP_PAGE_ROWS = 14;

export interface HelpEntry {
  left: string;
  right: string;
}

export interface HelpPage {
  title: string;
  entries: HelpEntry[];
  /** What the page is also called in `/help <name>` (its section's first page only). */
  section: 'commands' | 'custom' | 'keys';
}

export const KEY_HELP: ReadonlyArray<[string, string]> = [
  ['Enter', 'send (while busy: queue it)'],
  ['\\ Enter, Alt-Enter, Ctrl-J', 'new line'],
  ['↑ / ↓', 'history, lines, or the suggestion list'],
  ['Tab', 'complete @path or /command'],
  ['!command', 'run a shell command (sent with your next message)'],
  ['Shift+Tab', 'mode: default → accept edits → plan'],
  ['Esc', 'drop the last queued message, else interrupt'],
  ['Esc Esc', 'rewind: restore code and/or conversation'],
  ['Ctrl-C', 'interrupt · clear · twice to exit'],
  ['Ctrl-D', 'exit (empty prompt)'],
  ['Ctrl-L', 'clear the screen'],
  ['Ctrl-R', 'search the prompt history'],
  ['Ctrl-B', 'move running Bash commands to the background (/tasks)'],
  ['Ctrl-O', 'verbose transcript (whole tool output, subagent steps)'],
  ['Ctrl-V', 'paste the clipboard image'],
  ['Ctrl-A/E/U/K/W', 'home · end · kill line · kill word'],
];

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

function entriesOf(commands: readonly SlashCommandEntry[]): HelpEntry[] {
  return commands.map((command) => ({ left: command.usage, right: command.description }));
}

/** Every page, in order: built-in commands, custom commands (if any), keys. */
export function helpPages(custom: readonly SlashCommandEntry[] = []): HelpPage[] {
  const builtIn = new Set<string>(SLASH_COMMANDS.map((command) => command.name));
  const own = custom.filter((command) => !builtIn.has(command.name));
  const sections: Array<{ title: string; section: HelpPage['section']; entries: HelpEntry[] }> = [
    { title: 'Commands', section: 'commands', entries: entriesOf(SLASH_COMMANDS) },
    ...(own.length > 0 ? [{ title: 'Custom commands', section: 'custom' as const, entries: entriesOf(own) }] : []),
    {
      title: 'Keys',
      section: 'keys',
      entries: KEY_HELP.map(([left, right]) => ({ left, right })),
    },
  ];
  return sections.flatMap(({ title, section, entries }) =>
    chunk(entries, HELP_PAGE_ROWS).map((page) => ({ title, section, entries: page })),
  );
}

/** The page `/help <args>` asks for (1-based number or a section name); undefined when args name none. */
export function helpPageIndex(pages: readonly HelpPage[], args: string): number | undefined {
  const wanted = args.trim().toLowerCase();
  if (wanted === '') return 0;
  if (/^\d+$/.test(wanted)) {
    const index = Number(wanted) - 1;
    return index >= 0 && index < pages.length ? index : undefined;
  }
  const index = pages.findIndex((page) => page.section === wanted || page.title.toLowerCase() === wanted);
  return index >= 0 ? index : undefined;
}

/** The footer of page `index`: where it is, what comes next, where the whole key list lives. */
export function helpFooter(pages: readonly HelpPage[], index: number): string {
  const next = index + 1 < pages.length ? ` · /help ${index + 2} for more` : '';
  return `Page ${index + 1} of ${pages.length}${next} · @path mentions a file · all keys: KEYS.md`;
}

/** A left text longer than this does not widen the column for all others: it gets its own line instead. */
const WIDEST_INLINE_LEFT = 20;

/**
 * The width of the left column: the longest left text (of those up to WIDEST_INLINE_LEFT) plus a gap of two, at
 * most half the width. A left text longer than the column puts its description on the next line, so the two columns
 * never run together.
 */
export function helpColumn(entries: readonly HelpEntry[], width: number): number {
  const lengths = entries.map((entry) => [...entry.left].length).filter((length) => length <= WIDEST_INLINE_LEFT);
  return Math.max(8, Math.min(Math.max(0, ...lengths) + 2, Math.floor(width / 2)));
}

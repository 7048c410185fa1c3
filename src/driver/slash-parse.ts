/**
 * The built-in slash commands (one table: name, usage, description, whether it only shows something) and their
 * parser: the session driver routes and queues a line by them, front ends show them (the REPL's /help, suggestions
 * and handlers live in src/ui/slash-commands.ts).
 */

/**
 * The one table of built-in slash commands. `shows`: the command only shows something (it changes nothing), so it
 * runs at once even while a turn is busy instead of waiting in the queue.
 */
const TABLE = [
  { name: 'help', usage: '/help [page|keys]', description: 'Show commands and keys, a page at a time', shows: true },
  { name: 'clear', usage: '/clear', description: 'Start a new session', shows: false },
  {
    name: 'compact',
    usage: '/compact [focus]',
    description: 'Summarize old history now',
    shows: false,
    driverRuns: true,
  },
  { name: 'context', usage: '/context', description: 'Show context usage per layer', shows: true },
  { name: 'cost', usage: '/cost', description: "Show this session's tokens and cost", shows: true },
  { name: 'todos', usage: '/todos', description: 'Show the todo list', shows: true },
  {
    name: 'tasks',
    usage: '/tasks [<id> | stop <id>]',
    description: 'Background tasks: list, show output, stop',
    shows: true,
  },
  { name: 'memory', usage: '/memory', description: 'List the memory files and open one in $EDITOR', shows: false },
  {
    name: 'hooks',
    usage: '/hooks',
    description: 'List the hooks in effect, their files and last outcomes',
    shows: true,
  },
  { name: 'skills', usage: '/skills', description: 'List the skills the model can load', shows: true },
  {
    name: 'agents',
    usage: '/agents',
    description: 'List the subagents, and the subagent runs of this session',
    shows: true,
  },
  { name: 'model', usage: '/model [name]', description: 'Pick or set the model', shows: false },
  { name: 'resume', usage: '/resume [id]', description: 'Resume a past session', shows: false },
  {
    name: 'init',
    usage: '/init',
    description: 'Write a CLAUDE.md for this project (a model pass over it)',
    shows: false,
    driverRuns: true,
  },
  { name: 'status', usage: '/status', description: 'Version, model, key source, settings files, counts', shows: true },
  {
    name: 'doctor',
    usage: '/doctor',
    description: 'Check the installation, ripgrep, terminal and settings',
    shows: true,
  },
  {
    name: 'permissions',
    usage: '/permissions [allow <rule>]',
    description: 'Show the rules; add an allow rule',
    shows: true,
  },
  { name: 'config', usage: '/config', description: 'Show the settings in effect', shows: true },
  {
    name: 'output-style',
    usage: '/output-style [name]',
    description: 'List the output styles; use one for this session',
    shows: false,
  },
  {
    name: 'thinking',
    usage: '/thinking [on|off]',
    description: 'Turn extended thinking on or off (no argument toggles)',
    shows: false,
  },
  {
    name: 'add-dir',
    usage: '/add-dir <path>',
    description: 'Let the file tools use another directory too',
    shows: false,
  },
  {
    name: 'mcp',
    usage: '/mcp [reconnect|disable|enable|login <server>]',
    description: 'MCP servers: status, tools; reconnect, disable or enable one',
    shows: false,
  },
  {
    name: 'plugin',
    usage: '/plugin [verb]',
    description: 'Plugins: list, install, enable, disable',
    shows: false,
  },
  {
    name: 'export',
    usage: '/export [file | --clipboard]',
    description: 'Save the conversation as Markdown (or copy it)',
    shows: false,
  },
  {
    name: 'rewind',
    usage: '/rewind',
    description: 'Undo prompts: restore code and/or conversation (also /undo, Esc Esc)',
    shows: false,
  },
  {
    name: 'sandbox',
    usage: '/sandbox [on|off]',
    description: 'Show the Bash sandbox, or switch it for this session',
    shows: false,
  },
  { name: 'login', usage: '/login', description: 'How mca takes your API key', shows: true },
  { name: 'logout', usage: '/logout', description: 'How to stop mca using a key', shows: true },
  { name: 'exit', usage: '/exit', description: 'Quit mca', shows: false },
] as const;

export type SlashCommandName = (typeof TABLE)[number]['name'];

export interface SlashCommandSpec {
  name: SlashCommandName;
  usage: string;
  description: string;
  /** Only shows something: runs at once while a turn is busy. */
  shows: boolean;
  /**
   * The driver runs it itself (a compaction, a turn with a fixed prompt), so a front without slash commands of its
   * own (ACP) offers it too; every other command needs the front.
   */
  driverRuns?: boolean;
}

/** Every built-in command, in the order /help lists them. */
export const SLASH_COMMANDS: readonly SlashCommandSpec[] = TABLE;
export const SLASH_COMMAND_NAMES: readonly SlashCommandName[] = TABLE.map((command) => command.name);

/** The built-in commands the driver runs itself (the table's `driverRuns`). */
export const DRIVER_COMMANDS: readonly SlashCommandSpec[] = SLASH_COMMANDS.filter((command) => command.driverRuns);

/** Whether `parsed` is a built-in command that only shows something (the table's `shows`). */
export function onlyShows(parsed: ParsedSlash | null): boolean {
  if (parsed?.kind !== 'command') return false;
  return SLASH_COMMANDS.some((command) => command.name === parsed.name && command.shows);
}

const ALIASES: Record<string, SlashCommandName> = {
  quit: 'exit',
  q: 'exit',
  reset: 'clear',
  new: 'clear',
  settings: 'config',
  'allowed-tools': 'permissions',
  undo: 'rewind',
};

export type ParsedSlash =
  | { kind: 'command'; name: SlashCommandName; args: string }
  | { kind: 'unknown'; name: string; suggestion?: SlashCommandName };

/**
 * Null when the text is not a slash command (a plain message, or a path such as `/usr/bin/x`).
 */
export function parseSlashCommand(text: string): ParsedSlash | null {
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match?.[1]) return null;
  const raw = match[1].toLowerCase();
  const args = (match[2] ?? '').trim();
  const name = (SLASH_COMMAND_NAMES as readonly string[]).includes(raw) ? (raw as SlashCommandName) : ALIASES[raw];
  if (name) return { kind: 'command', name, args };
  const suggestion = closestCommand(raw);
  return suggestion ? { kind: 'unknown', name: raw, suggestion } : { kind: 'unknown', name: raw };
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/**
 * Commands that change files, the conversation or the session: a typo is never answered with one of them ("Did
 * you mean /rewind?" for `/review` pointed at a destructive command).
 */
const NEVER_SUGGESTED: ReadonlySet<SlashCommandName> = new Set([
  'clear',
  'compact',
  'rewind',
  'init',
  'export',
  'add-dir',
  'resume',
  'exit',
]);
const SUGGESTED = SLASH_COMMAND_NAMES.filter((command) => !NEVER_SUGGESTED.has(command));

/**
 * The known command nearest to `name` among those that only show or set something: a prefix match first, else the
 * smallest edit distance ≤ 3.
 */
export function closestCommand(name: string): SlashCommandName | undefined {
  const lower = name.toLowerCase();
  const prefixed = SUGGESTED.find((command) => command.startsWith(lower) || lower.startsWith(command));
  if (prefixed) return prefixed;
  let best: { name: SlashCommandName; distance: number } | undefined;
  for (const command of SUGGESTED) {
    const distance = editDistance(lower, command);
    if (!best || distance < best.distance) best = { name: command, distance };
  }
  return best && best.distance <= 3 ? best.name : undefined;
}

/**
 * The built-in slash commands' names and their parser: the session driver routes a line by them, front ends show
 * them (the REPL's /help and suggestions live in src/ui/slash-commands.ts).
 */

export const SLASH_COMMAND_NAMES = [
  'help',
  'clear',
  'compact',
  'context',
  'cost',
  'todos',
  'tasks',
  'memory',
  'hooks',
  'skills',
  'agents',
  'model',
  'resume',
  'init',
  'status',
  'doctor',
  'permissions',
  'mcp',
  'config',
  'add-dir',
  'export',
  'rewind',
  'exit',
] as const;
export type SlashCommandName = (typeof SLASH_COMMAND_NAMES)[number];

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

/** The known command nearest to `name`: a prefix match first, else the smallest edit distance ≤ 3. */
export function closestCommand(name: string): SlashCommandName | undefined {
  const lower = name.toLowerCase();
  const prefixed = SLASH_COMMAND_NAMES.find((command) => command.startsWith(lower) || lower.startsWith(command));
  if (prefixed) return prefixed;
  let best: { name: SlashCommandName; distance: number } | undefined;
  for (const command of SLASH_COMMAND_NAMES) {
    const distance = editDistance(lower, command);
    if (!best || distance < best.distance) best = { name: command, distance };
  }
  return best && best.distance <= 3 ? best.name : undefined;
}

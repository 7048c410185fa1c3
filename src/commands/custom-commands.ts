/**
 * Custom slash commands in Claude Code's format: Markdown files under the user's `~/.claude/commands/` and
 * `$MCA_HOME/commands/` and the project's `.claude/commands/` and `.mca/commands/` (later wins, so a project
 * command overrides a user one). A subfolder gives a namespace (`git/commit.md` is `/git:commit`). Optional YAML
 * frontmatter: `description`, `argument-hint`, `allowed-tools`, `model`. Files are read like every file mca reads
 * on its own (regular, size-capped, inside their root); a broken one is skipped with one line. The YAML parser
 * loads only when a file has frontmatter.
 */
import { readdirSync, realpathSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { hasControlSequences } from '../text/terminal-safe.js';
import { BUILT_IN_PROMPTS } from './built-in-prompts.js';
import { markdownEntries } from './plugin-parts.js';
import type { PluginFolder } from './plugin-folders.js';

export const COMMAND_MAX_BYTES = 256 * 1024;
const MAX_DEPTH = 3;
const MAX_FILES = 500;
const NAME_PATTERN = /^[A-Za-z0-9][\w.-]*(?::[A-Za-z0-9][\w.-]*)*$/;

export type CommandScope = 'user' | 'project';

export interface CustomCommand {
  /** Without the slash: `review`, `git:commit`. */
  name: string;
  description: string;
  argumentHint: string | undefined;
  /** Rules in Claude Code syntax the command's `!` lines may run under. */
  allowedTools: string[];
  model: string | undefined;
  body: string;
  path: string;
  scope: CommandScope;
}

export interface CommandSources {
  projectRoot: string;
  mcaHome: string;
  home?: string;
  /** Plugins (`--plugin-dir`, `enabledPlugins`): their commands as `/<plugin>:<name>`, after every other source. */
  plugins?: readonly PluginFolder[];
}

function markdownFiles(dir: string, depth: number, found: string[]): void {
  if (depth > MAX_DEPTH || found.length >= MAX_FILES) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) markdownFiles(path, depth + 1, found);
    // Symlinks are followed only as files: readBoundedFile checks where they lead.
    else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.md')) found.push(path);
  }
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** Splits `---\nyaml\n---\nbody`; no frontmatter leaves the whole text as the body. */
export async function parseCommandFile(
  text: string,
): Promise<{ front: Record<string, unknown>; body: string } | { error: string }> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { front: {}, body: text };
  const { parseFrontmatterYaml } = await import('./frontmatter-yaml.js');
  let front: unknown;
  try {
    front = parseFrontmatterYaml(match[1] ?? '');
  } catch (error) {
    return { error: `its frontmatter is not valid YAML (${(error as Error).message.split('\n')[0]})` };
  }
  if (front === null || front === undefined) front = {};
  if (typeof front !== 'object' || Array.isArray(front)) return { error: 'its frontmatter must be a YAML mapping' };
  return { front: front as Record<string, unknown>, body: text.slice(match[0].length) };
}

function firstLine(body: string): string {
  const line = body.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  const text = line.replace(/^#+\s*/, '').trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

async function loadDirectory(
  dir: string,
  scope: CommandScope,
  root: string | undefined,
  notices: string[],
): Promise<CustomCommand[]> {
  const files: string[] = [];
  markdownFiles(dir, 0, files);
  const commands: CustomCommand[] = [];
  for (const path of files) {
    const name = relative(dir, path).slice(0, -'.md'.length).split(sep).join(':');
    if (!NAME_PATTERN.test(name)) {
      notices.push(`ignored command file ${path}: its name must be letters, digits, - _ . (subfolders give a:b)`);
      continue;
    }
    const read = readBoundedFile(path, { maxBytes: COMMAND_MAX_BYTES, ...(root ? { root } : {}) });
    if (!read.ok) {
      notices.push(`ignored command /${name}: ${read.message}`);
      continue;
    }
    const parsed = await parseCommandFile(read.text);
    if ('error' in parsed) {
      notices.push(`ignored command /${name} (${path}): ${parsed.error}`);
      continue;
    }
    const { front, body } = parsed;
    const description = typeof front.description === 'string' ? front.description : firstLine(body);
    commands.push({
      name,
      description: description || `custom command (${scope})`,
      argumentHint: typeof front['argument-hint'] === 'string' ? front['argument-hint'] : undefined,
      allowedTools: stringList(front['allowed-tools'])
        .flatMap((entry) => entry.split(/,(?![^(]*\))/))
        .map((rule) => rule.trim())
        .filter(Boolean),
      // A model name is printed in the REPL: one with control characters (an escape sequence) is not used.
      model: typeof front.model === 'string' && !hasControlSequences(front.model) ? front.model : undefined,
      body,
      path,
      scope,
    });
  }
  return commands;
}

/** Every command by name; a later source overrides an earlier one (project over user). */
export async function loadCustomCommands(
  sources: CommandSources,
  notices: string[] = [],
): Promise<Map<string, CustomCommand>> {
  const home = sources.home ?? homedir();
  let root = sources.projectRoot;
  try {
    root = realpathSync(root);
  } catch {
    // No project files then.
  }
  const layers: Array<[string, CommandScope, string | undefined]> = [
    [join(home, '.claude', 'commands'), 'user', undefined],
    [join(sources.mcaHome, 'commands'), 'user', undefined],
    [join(root, '.claude', 'commands'), 'project', root],
    [join(root, '.mca', 'commands'), 'project', root],
  ];
  // mca's own prompts first: any command file of the same name replaces one.
  const commands = new Map<string, CustomCommand>(
    BUILT_IN_PROMPTS.map((prompt) => [
      prompt.name,
      { ...prompt, model: undefined, path: `(built into mca: /${prompt.name})`, scope: 'user' },
    ]),
  );
  for (const [dir, scope, fileRoot] of layers) {
    for (const command of await loadDirectory(dir, scope, fileRoot, notices)) commands.set(command.name, command);
  }
  for (const plugin of sources.plugins ?? []) {
    for (const { dir, file } of markdownEntries(plugin.commands)) {
      for (const command of await loadDirectory(dir, 'user', plugin.dir, notices)) {
        if (file !== undefined && command.path !== file) continue;
        const name = `${plugin.name}:${command.name}`;
        commands.set(name, { ...command, name, description: `${command.description} (plugin ${plugin.name})` });
      }
    }
  }
  return commands;
}

/** `/name rest` when `name` is a custom command, else undefined (a built-in, an unknown name, a path). */
export function matchCustomCommand(
  text: string,
  commands: ReadonlyMap<string, CustomCommand>,
): { command: CustomCommand; args: string } | undefined {
  const match = /^\/([A-Za-z0-9][\w.:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const command = match?.[1] === undefined ? undefined : commands.get(match[1]);
  return command ? { command, args: (match?.[2] ?? '').trim() } : undefined;
}

/**
 * MCP prompts as slash commands: each prompt of a connected server is `/mcp__<server>__<prompt> args` (the server
 * part sanitised as in tool names). The words after the name fill the prompt's declared arguments in order
 * ("quoted strings" hold spaces; words beyond the last argument join it); a missing required argument is a
 * one-line error naming it. The prompt's messages become the user's prompt text (prompt-text.ts). A prompt whose
 * name is not a valid command name (spaces, control characters, a leading symbol) is skipped with one notice.
 */
import type { Prompt } from '@modelcontextprotocol/client';
import { McaError } from '../errors/mca-error.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import type { McpManager } from './mcp-manager.js';
import { promptText } from './prompt-text.js';
import { MCP_PREFIX, sanitizeServerPart } from './tool-names.js';

const PROMPT_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;
const COMMAND_LINE = /^\/(mcp__[A-Za-z0-9_-]+?__[^\s]+)(?:\s+([\s\S]*))?$/;
const MAX_DESCRIPTION = 120;
/** Arguments shown in a prompt's usage line (a server may declare any number). */
const MAX_USAGE_ARGUMENTS = 8;

export class McpPromptError extends McaError {
  constructor(
    readonly code: 'MCP_PROMPT_UNKNOWN' | 'MCP_PROMPT_ARGUMENT',
    message: string,
  ) {
    super(message);
  }
}

export interface PromptCommandInfo {
  name: string;
  usage: string;
  description: string;
}

/** The command name of a server's prompt, or undefined when the prompt's name cannot be one. */
export function promptCommandName(server: string, prompt: string): string | undefined {
  return PROMPT_NAME.test(prompt) ? `${MCP_PREFIX}${sanitizeServerPart(server)}__${prompt}` : undefined;
}

/** Splits command arguments: words, or "double" / 'single' quoted strings (quotes removed). */
export function splitArguments(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

/** The values for the prompt's declared arguments, in order; extra words join the last argument. */
export function mapArguments(prompt: Prompt, text: string, command: string): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const words = splitArguments(text);
  const values: Record<string, string> = {};
  declared.forEach((argument, index) => {
    const last = index === declared.length - 1;
    const value = last ? words.slice(index).join(' ') : words[index];
    if (value !== undefined && value !== '') values[argument.name] = value;
  });
  const missing = declared.find((argument) => argument.required === true && values[argument.name] === undefined);
  if (missing) {
    const usage = usageWords(declared);
    throw new McpPromptError(
      'MCP_PROMPT_ARGUMENT',
      `/${command} needs the argument "${oneLine(missing.name, 60)}" (usage: /${command} ${usage.join(' ')})`,
    );
  }
  return values;
}

/** The first MAX_USAGE_ARGUMENTS declared arguments as usage words: `<required>`, `[optional]`. */
function usageWords(declared: NonNullable<Prompt['arguments']>): string[] {
  return declared
    .slice(0, MAX_USAGE_ARGUMENTS)
    .map((argument) => (argument.required ? `<${oneLine(argument.name, 30)}>` : `[${oneLine(argument.name, 30)}]`));
}

function oneLine(text: string, max: number): string {
  const line = neutralizeControlSequences(text.replace(/\s+/g, ' ').trim());
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The prompt commands of every connected server, for completion, /help and the available-commands list. */
export class McpPromptCommands {
  private snapshot: PromptCommandInfo[] = [];
  private readonly byName = new Map<string, { server: string; prompt: Prompt }>();
  private seen = -1;
  private refreshing: Promise<void> | undefined;
  private readonly skipped = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly manager: McpManager,
    private readonly notice: (line: string) => void,
    private readonly maxChars: number,
  ) {
    // A server that connects, goes away or changes its prompts: list again, and tell whoever shows the list.
    manager.onChange(() => {
      if (this.listeners.size > 0) void this.refresh();
    });
  }

  /** Calls `listener` after each listing that changed the commands; returns the unsubscribe function. */
  onListChange(listener: () => void): () => void {
    this.listeners.add(listener);
    if (this.manager.version !== this.seen) void this.refresh();
    return () => void this.listeners.delete(listener);
  }

  /** The commands known now; a change since the last look (a server connected) starts a listing in the background. */
  get list(): readonly PromptCommandInfo[] {
    if (this.manager.version !== this.seen) void this.refresh();
    return this.snapshot;
  }

  /** Lists the prompts of every connected server again. */
  refresh(): Promise<void> {
    // A change during a listing lists again after it (the listing in flight may predate it).
    if (this.refreshing)
      return this.refreshing.then(() => (this.manager.version !== this.seen ? this.refresh() : undefined));
    this.seen = this.manager.version;
    this.refreshing = this.load().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** `/mcp__server__prompt args` when `server` is a configured server (its prompts may still be on their way). */
  match(text: string): { name: string; args: string } | undefined {
    const found = COMMAND_LINE.exec(text.trim());
    if (!found?.[1]) return undefined;
    const known = this.manager
      .list()
      .some((status) => found[1]?.startsWith(`${MCP_PREFIX}${sanitizeServerPart(status.name)}__`));
    return known ? { name: found[1], args: (found[2] ?? '').trim() } : undefined;
  }

  /** The prompt text the command expands to; throws McpPromptError / McpCatalogError (one line) when it cannot. */
  async expand(name: string, args: string): Promise<string> {
    if (this.manager.list().some((status) => status.state === 'connecting')) await this.manager.settled();
    if (!this.byName.has(name) || this.manager.version !== this.seen) await this.refresh();
    const entry = this.byName.get(name);
    if (!entry) throw new McpPromptError('MCP_PROMPT_UNKNOWN', `no MCP prompt /${oneLine(name, 120)} (see /mcp)`);
    const values = mapArguments(entry.prompt, args, name);
    const result = await this.manager.catalog.getPrompt(entry.server, entry.prompt.name, values);
    return promptText(result, this.maxChars);
  }

  private async load(): Promise<void> {
    const connected = this.manager.list().filter((status) => status.state === 'connected');
    const lists = await Promise.all(
      connected.map(async (status) => ({
        server: status.name,
        prompts: await this.manager.catalog.prompts(status.name),
      })),
    );
    const infos: PromptCommandInfo[] = [];
    this.byName.clear();
    for (const { server, prompts } of lists) {
      for (const prompt of prompts) {
        const name = promptCommandName(server, prompt.name);
        if (!name || this.byName.has(name)) {
          const key = `${server}\u0000${prompt.name}`;
          if (!this.skipped.has(key)) {
            this.skipped.add(key);
            this.notice(
              `MCP server "${oneLine(server, 60)}": prompt ${JSON.stringify(oneLine(prompt.name, 80))} left out: not a valid command name`,
            );
          }
          continue;
        }
        this.byName.set(name, { server, prompt });
        const declared = prompt.arguments ?? [];
        const usage = usageWords(declared);
        infos.push({
          name,
          usage: [`/${name}`, ...usage, ...(declared.length > MAX_USAGE_ARGUMENTS ? ['…'] : [])].join(' '),
          description: `${oneLine(prompt.description ?? prompt.title ?? 'MCP prompt', MAX_DESCRIPTION)} (MCP ${oneLine(server, 40)})`,
        });
      }
    }
    const before = JSON.stringify(this.snapshot);
    this.snapshot = infos.sort((a, b) => a.name.localeCompare(b.name));
    if (JSON.stringify(this.snapshot) !== before) for (const listener of this.listeners) listener();
  }
}

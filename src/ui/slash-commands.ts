/**
 * Slash commands in the REPL: the list shown in /help and in suggestions, and the dispatch table (the names and
 * the parser belong to the session driver, which routes lines by them).
 * Handlers only talk to a `SlashContext`, which the app implements; tests use a fake one.
 */

import { SLASH_COMMAND_NAMES, type ParsedSlash, type SlashCommandName } from '../driver/slash-parse.js';
import { tasksCommand } from './tasks-command.js';

export {
  closestCommand,
  parseSlashCommand,
  SLASH_COMMAND_NAMES,
  type ParsedSlash,
  type SlashCommandName,
} from '../driver/slash-parse.js';

export interface SlashCommandSpec {
  name: SlashCommandName;
  usage: string;
  description: string;
}

export const SLASH_COMMANDS: readonly SlashCommandSpec[] = [
  { name: 'help', usage: '/help', description: 'Show keys and commands' },
  { name: 'clear', usage: '/clear', description: 'Start a new session' },
  { name: 'compact', usage: '/compact [focus]', description: 'Summarize old history now' },
  { name: 'context', usage: '/context', description: 'Show context usage per layer' },
  { name: 'cost', usage: '/cost', description: "Show this session's tokens and cost" },
  { name: 'todos', usage: '/todos', description: 'Show the todo list' },
  { name: 'tasks', usage: '/tasks [<id> | stop <id>]', description: 'Background tasks: list, show output, stop' },
  { name: 'memory', usage: '/memory', description: 'List the memory files and open one in $EDITOR' },
  { name: 'hooks', usage: '/hooks', description: 'List the hooks in effect, their files and last outcomes' },
  { name: 'skills', usage: '/skills', description: 'List the skills the model can load' },
  { name: 'agents', usage: '/agents', description: 'List the subagents, and the subagent runs of this session' },
  { name: 'model', usage: '/model [name]', description: 'Pick or set the model' },
  { name: 'resume', usage: '/resume [id]', description: 'Resume a past session' },
  { name: 'init', usage: '/init', description: 'Write a CLAUDE.md for this project (a model pass over it)' },
  { name: 'status', usage: '/status', description: 'Version, model, key source, settings files, counts' },
  { name: 'doctor', usage: '/doctor', description: 'Check the installation, ripgrep, terminal and settings' },
  { name: 'permissions', usage: '/permissions [allow <rule>]', description: 'Show the rules; add an allow rule' },
  { name: 'config', usage: '/config', description: 'Show the settings in effect' },
  { name: 'add-dir', usage: '/add-dir <path>', description: 'Let the file tools use another directory too' },
  {
    name: 'mcp',
    usage: '/mcp [reconnect|disable|enable|login <server>]',
    description: 'MCP servers: status, tools; reconnect, disable or enable one',
  },
  {
    name: 'export',
    usage: '/export [file | --clipboard]',
    description: 'Save the conversation as Markdown (or copy it)',
  },
  {
    name: 'rewind',
    usage: '/rewind',
    description: 'Undo prompts: restore code and/or conversation (also /undo, Esc Esc)',
  },
  { name: 'exit', usage: '/exit', description: 'Quit mca' },
];

/** A line of /help or of the suggestion list: a built-in command or a custom one (`git:commit`). */
export interface SlashCommandEntry {
  name: string;
  usage: string;
  description: string;
}

/**
 * Suggestions while the user types `/co…` (no space yet): built-in commands, then custom ones a built-in does
 * not shadow. Empty for anything else.
 */
export function suggestSlashCommands(text: string, custom: readonly SlashCommandEntry[] = []): SlashCommandEntry[] {
  const match = /^\/([\w:.-]*)$/.exec(text);
  if (!match) return [];
  const prefix = (match[1] ?? '').toLowerCase();
  const builtIn: SlashCommandEntry[] = SLASH_COMMANDS.filter((command) => command.name.startsWith(prefix));
  const names = new Set<string>(SLASH_COMMAND_NAMES);
  const own = custom.filter((command) => !names.has(command.name) && command.name.toLowerCase().startsWith(prefix));
  return [...builtIn, ...own];
}

/** What the command handlers may do; implemented by the app. */
export interface SlashContext {
  showHelp(): void;
  clearSession(): void;
  compact(focus: string | undefined): void;
  showContext(): void;
  showTodos(): void;
  showMemory(): void;
  showHooks(): void;
  /** The loaded skills (/skills) and subagents (/agents), one line each. */
  showSkills(): void;
  showAgents(): void;
  showCost(): void;
  showModel(): void;
  setModel(name: string): void;
  init(): void;
  showStatus(): void;
  showDoctor(): void;
  permissions(args: string): void;
  showConfig(): void;
  /** `/mcp`: the MCP servers, and what to do with one (mcp-view.ts). */
  mcp(args: string): void;
  addDir(args: string): void;
  exportConversation(args: string): void;
  openSessionPicker(): void;
  /** `/rewind`, `/undo`, Esc Esc: the session's checkpoints. */
  openRewind(): void;
  resumeSession(id: string): void;
  exit(): void;
  notice(text: string, tone?: 'info' | 'warning' | 'error'): void;
}

type Handler = (context: SlashContext, args: string) => void;

export const SLASH_HANDLERS: Record<SlashCommandName, Handler> = {
  help: (context) => context.showHelp(),
  clear: (context) => context.clearSession(),
  compact: (context, args) => context.compact(args || undefined),
  context: (context) => context.showContext(),
  cost: (context) => context.showCost(),
  todos: (context) => context.showTodos(),
  tasks: (context, args) => void tasksCommand(args, (text, tone) => context.notice(text, tone)),
  memory: (context) => context.showMemory(),
  hooks: (context) => context.showHooks(),
  skills: (context) => context.showSkills(),
  agents: (context) => context.showAgents(),
  model: (context, args) => (args ? context.setModel(args) : context.showModel()),
  resume: (context, args) => (args ? context.resumeSession(args) : context.openSessionPicker()),
  init: (context) => context.init(),
  status: (context) => context.showStatus(),
  doctor: (context) => context.showDoctor(),
  permissions: (context, args) => context.permissions(args),
  config: (context) => context.showConfig(),
  mcp: (context, args) => context.mcp(args),
  'add-dir': (context, args) => context.addDir(args),
  export: (context, args) => context.exportConversation(args),
  rewind: (context) => context.openRewind(),
  exit: (context) => context.exit(),
};

/** Runs a parsed command, or explains an unknown one with the closest match. */
export function dispatchSlash(parsed: ParsedSlash, context: SlashContext): void {
  if (parsed.kind === 'command') {
    SLASH_HANDLERS[parsed.name](context, parsed.args);
    return;
  }
  const hint = parsed.suggestion ? ` Did you mean /${parsed.suggestion}?` : '';
  context.notice(`Unknown command /${parsed.name}.${hint} Type /help for the list.`, 'warning');
}

/**
 * Slash commands in the REPL: suggestions and the handlers (the table of commands, with their usage and whether
 * each only shows something, and the parser belong to the session driver, which routes and queues lines by them).
 * Handlers only talk to a `SlashContext`, which the app implements; tests use a fake one.
 */

import { SLASH_COMMAND_NAMES, SLASH_COMMANDS, type ParsedSlash, type SlashCommandName } from '../driver/slash-parse.js';
import { tasksCommand } from './tasks-command.js';

export {
  closestCommand,
  parseSlashCommand,
  SLASH_COMMAND_NAMES,
  SLASH_COMMANDS,
  type ParsedSlash,
  type SlashCommandSpec,
  type SlashCommandName,
} from '../driver/slash-parse.js';

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
  /** `/help [page]`: a page number, `keys` or `custom`; none is page 1. */
  showHelp(args?: string): void;
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
  /** `/output-style [name]` and `/thinking [on|off]` (issue 40). */
  outputStyle(args: string): void;
  thinking(args: string): void;
  /** `/mcp`: the MCP servers, and what to do with one (mcp-view.ts). */
  mcp(args: string): void;
  /** `/plugin [verb …]`: `mca plugin`'s words in the session (src/plugins/plugin-verbs.ts). */
  plugin(args: string): void;
  addDir(args: string): void;
  /** `/sandbox [on|off]`: the Bash sandbox's state, or switch it for this session. */
  sandbox(args: string): void;
  exportConversation(args: string): void;
  openSessionPicker(): void;
  /** `/rewind`, `/undo`, Esc Esc: the session's checkpoints. */
  openRewind(): void;
  resumeSession(id: string): void;
  exit(): void;
  notice(text: string, tone?: 'info' | 'warning' | 'error'): void;
}

type Handler = (context: SlashContext, args: string) => void;

/** `/login`: Claude Code signs in; mca reads a key from the environment (a subscription sign-in is not supported). */
const LOGIN_TEXT = [
  'mca takes an API key from the environment; there is nothing to sign in to.',
  'Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a gateway) before starting mca, e.g. export ANTHROPIC_API_KEY=sk-ant-…',
  'A Claude subscription (Pro/Max) sign-in is not supported. Other providers: MCA_PROVIDER=openai with OPENAI_API_KEY.',
  'MCP servers that need a sign-in: mca mcp login <server>.',
].join('\n');

const LOGOUT_TEXT =
  'mca keeps no sign-in: it reads the key from the environment at start. Unset ANTHROPIC_API_KEY and restart to stop using it.';

export const SLASH_HANDLERS: Record<SlashCommandName, Handler> = {
  help: (context, args) => context.showHelp(args),
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
  'output-style': (context, args) => context.outputStyle(args),
  thinking: (context, args) => context.thinking(args),
  mcp: (context, args) => context.mcp(args),
  plugin: (context, args) => context.plugin(args),
  'add-dir': (context, args) => context.addDir(args),
  sandbox: (context, args) => context.sandbox(args),
  export: (context, args) => context.exportConversation(args),
  rewind: (context) => context.openRewind(),
  login: (context) => context.notice(LOGIN_TEXT),
  logout: (context) => context.notice(LOGOUT_TEXT),
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

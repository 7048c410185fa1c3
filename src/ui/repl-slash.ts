/** The REPL's slash commands over its SessionDriver: what they show is the view's; what they change, the driver's. */
import type { UsageByModel } from './session-cost.js';
import type { SessionInfo } from '../loop/controller.js';
import type { SessionDriver } from '../driver/session-driver.js';
import type { ModelPrice } from '../providers/model-prices.js';
import { helpPageIndex, helpPages } from './help-pages.js';
import { errorText } from './repl-driver-view.js';
import type { ReplCommands } from './repl-commands.js';
import type { SlashContext } from './slash-commands.js';
import type { TranscriptEntry } from './transcript-state.js';

export interface PickerState {
  sessions: SessionInfo[] | null;
  selected: number;
}

/** The text /skills and /agents show. */
export interface ExtensionLists {
  skills: string;
  agents: string;
  /** The subagent runs of the open session, read when /agents is typed (they change as the session goes on). */
  runs?: () => string;
}

export interface ReplSlashDeps {
  driver: SessionDriver;
  append(entry: TranscriptEntry): void;
  notice(text: string, tone?: 'info' | 'warning' | 'error'): void;
  setPicker(next: PickerState | null | ((picker: PickerState | null) => PickerState | null)): void;
  sessionUsage(): UsageByModel;
  prices?: Readonly<Record<string, ModelPrice>> | undefined;
  /** What /skills and /agents show (made at start: the lists do not change while the REPL runs). */
  extensionLists?: ExtensionLists | undefined;
  exit(): void;
  /** The daily commands (repl-commands.ts). */
  commands: ReplCommands;
  rewind: { open(): void; showStoreSize(): void };
}

export function createReplSlash(deps: ReplSlashDeps): SlashContext {
  const { driver, append, notice, setPicker, prices } = deps;
  return {
    showHelp: (args = '') => {
      const custom = driver.customCommands?.list ?? [];
      const pages = helpPages(custom);
      const page = helpPageIndex(pages, args);
      if (page === undefined) {
        notice(
          `No help page "${args.trim()}": /help 1 to /help ${pages.length}, /help keys or /help custom.`,
          'warning',
        );
        return;
      }
      append({ kind: 'help', custom, page });
    },
    clearSession: () => void driver.newSession(),
    compact: (focus) => void driver.compact(focus),
    showContext: () => {
      append({ kind: 'context', report: driver.controller.contextReport() });
      deps.rewind.showStoreSize();
    },
    openRewind: () => deps.rewind.open(),
    showTodos: () => append({ kind: 'todos', todos: [...driver.controller.todos()] }),
    showMemory: deps.commands.openMemory,
    showHooks: () => notice(driver.hooksReport().join('\n')),
    showSkills: () => notice(deps.extensionLists?.skills ?? 'No skills are loaded.'),
    showAgents: () => {
      const lists = deps.extensionLists;
      notice([lists?.agents ?? 'No subagents are loaded.', ...(lists?.runs ? [lists.runs()] : [])].join('\n\n'));
    },
    showCost: () =>
      append({ kind: 'cost', usage: deps.sessionUsage(), model: driver.model, ...(prices ? { prices } : {}) }),
    showModel: deps.commands.showModel,
    setModel: deps.commands.setModel,
    init: deps.commands.init,
    showStatus: deps.commands.showStatus,
    showDoctor: deps.commands.showDoctor,
    permissions: deps.commands.permissions,
    showConfig: deps.commands.showConfig,
    outputStyle: deps.commands.outputStyle,
    thinking: deps.commands.thinking,
    mcp: deps.commands.mcp,
    plugin: deps.commands.plugin,
    addDir: deps.commands.addDir,
    sandbox: deps.commands.sandbox,
    exportConversation: deps.commands.exportConversation,
    openSessionPicker: () => {
      setPicker({ sessions: null, selected: 0 });
      driver.resumableSessions().then(
        (choices) => setPicker((picker) => (picker ? { ...picker, sessions: choices } : picker)),
        (error: unknown) => {
          setPicker(null);
          notice(`Cannot list sessions: ${errorText(error)}`, 'error');
        },
      );
    },
    resumeSession: (id) => {
      setPicker(null);
      void driver.resume(id);
    },
    exit: deps.exit,
    notice,
  };
}

/** The REPL's slash commands over its SessionDriver: what they show is the view's; what they change, the driver's. */
import type { SessionInfo } from '../agent/controller.js';
import type { SessionDriver } from '../driver/session-driver.js';
import type { ModelPrice } from '../providers/model-prices.js';
import type { Usage } from '../providers/types.js';
import { formatMemoryList } from './memory-list.js';
import { errorText } from './repl-driver-view.js';
import type { SlashContext } from './slash-commands.js';
import type { TranscriptEntry } from './transcript-reducer.js';

export interface PickerState {
  sessions: SessionInfo[] | null;
  selected: number;
}

export interface ReplSlashDeps {
  driver: SessionDriver;
  append(entry: TranscriptEntry): void;
  notice(text: string, tone?: 'info' | 'warning' | 'error'): void;
  setPicker(next: PickerState | null | ((picker: PickerState | null) => PickerState | null)): void;
  sessionUsage(): Usage;
  prices?: Readonly<Record<string, ModelPrice>> | undefined;
  exit(): void;
}

export function createReplSlash(deps: ReplSlashDeps): SlashContext {
  const { driver, append, notice, setPicker, prices } = deps;
  return {
    showHelp: () => append({ kind: 'help', custom: driver.customCommands?.list ?? [] }),
    clearSession: () => void driver.newSession(),
    compact: (focus) => void driver.compact(focus),
    showContext: () => append({ kind: 'context', report: driver.controller.contextReport() }),
    showTodos: () => append({ kind: 'todos', todos: [...driver.controller.todos()] }),
    showMemory: () => notice(formatMemoryList(driver.controller.memoryFiles())),
    showHooks: () => notice(driver.hooksReport().join('\n')),
    showCost: () =>
      append({ kind: 'cost', usage: deps.sessionUsage(), model: driver.model, ...(prices ? { prices } : {}) }),
    showModel: () => notice(`Model: ${driver.model}`),
    setModel: (name) => {
      driver.setModel(name);
      notice(`Model set to ${name}.`);
    },
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

/** Entry point the CLI calls for the interactive `mca`. */
import { render } from 'ink';
import React from 'react';
import type { SessionManager } from '../loop/controller.js';
import type { RewindPort } from './rewind-dialog.js';
import { App } from './app.js';
import { loadInputHistory, saveInputHistory } from './input-history.js';
import { loadHighlighter } from './markdown.js';
import type { ModelPrice } from '../providers/model-prices.js';
import type { ExtensionLists } from './repl-slash.js';
import type { ReplMcp } from './mcp-view.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { ReplSessionOpener } from './use-repl.js';
import type { ReplInfoPort } from './info-port.js';

export interface ReplOptions {
  sessions: SessionManager;
  /** Opens the session with what the REPL can do (src/driver/open-session.ts). */
  open?: ReplSessionOpener;
  /** File for persisted input history (↑/↓), one JSON string per line; directories are created as needed. */
  inputHistoryPath: string;
  /** Values (the API keys) never written to the input-history file. */
  inputHistorySecrets?: readonly string[];
  /**
   * Completions for `@`: project-relative paths matching a prefix (directories end with "/"), directories
   * first, .gitignore honoured. Provided by the CLI so the UI has no file-system policy of its own.
   */
  completePath: (prefix: string) => Promise<string[]>;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** `mca "question"`: submitted once when the REPL opens. */
  initialPrompt?: string;
  /** `mca -r` without an id: the session picker opens first. */
  openPicker?: boolean;
  /** The permission rules, for /permissions (the session applies them from `open`). */
  policy?: PermissionPolicy;
  /** The project's checkpoints (`/rewind`, Esc Esc). */
  checkpoints?: RewindPort;
  /** "Always allow" in the permission prompt: writes the rule to .claude/settings.local.json, returns the file. */
  saveRule?: (rule: string) => string;
  /** Price overrides from config (`modelPrices`). */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Installation details and files for /status, /config, /doctor, `#`, /memory, /export. */
  info?: ReplInfoPort;
  /** What /skills and /agents show. */
  extensionLists?: ExtensionLists;
  /** The MCP servers (/mcp) and resource mentions; absent without configured servers. */
  mcp?: ReplMcp;
}

/** Runs the REPL until the user exits. Ink's unmount restores the terminal (raw mode off) on every path. */
export async function runRepl(options: ReplOptions): Promise<void> {
  const [history] = await Promise.all([loadInputHistory(options.inputHistoryPath), loadHighlighter()]);
  // Writes are chained so an older history never overwrites a newer one.
  let saving: Promise<void> = Promise.resolve();
  const onHistory = (entries: string[]): void => {
    saving = saving
      .then(() => saveInputHistory(options.inputHistoryPath, entries, options.inputHistorySecrets))
      .catch(() => undefined);
  };
  // Raw mode before the first frame: keys typed the moment the prompt appears must not reach a cooked terminal,
  // which would echo them over the frame and turn Enter into a newline. Ink turns it off again on unmount.
  const stdin = options.stdin ?? process.stdin;
  if (stdin.isTTY) stdin.setRawMode(true);
  const terminator: { current: (() => Promise<void>) | null } = { current: null };
  const instance = render(
    <App
      terminator={terminator}
      sessions={options.sessions}
      {...(options.open ? { open: options.open } : {})}
      history={history}
      onHistory={onHistory}
      completePath={options.completePath}
      openPicker={options.openPicker === true}
      {...(options.prices ? { prices: options.prices } : {})}
      {...(options.extensionLists ? { extensionLists: options.extensionLists } : {})}
      {...(options.policy ? { policy: options.policy } : {})}
      {...(options.checkpoints ? { checkpoints: options.checkpoints } : {})}
      {...(options.saveRule ? { saveRule: options.saveRule } : {})}
      {...(options.info ? { info: options.info } : {})}
      {...(options.mcp ? { mcp: options.mcp } : {})}
      {...(options.initialPrompt ? { initialPrompt: options.initialPrompt } : {})}
    />,
    {
      exitOnCtrlC: false,
      patchConsole: false,
      ...(options.stdin ? { stdin: options.stdin } : {}),
      ...(options.stdout ? { stdout: options.stdout } : {}),
    },
  );
  // SIGTERM/SIGHUP: the running turn is interrupted and its round closed in the session file at once, then the
  // screen is restored (termination.ts forces the exit if that takes longer than its grace period).
  const restore = (): void => {
    const stop = terminator.current?.() ?? Promise.resolve();
    void stop.finally(() => instance.unmount());
  };
  process.once('SIGTERM', restore);
  process.once('SIGHUP', restore);
  try {
    await instance.waitUntilExit();
  } finally {
    process.off('SIGTERM', restore);
    process.off('SIGHUP', restore);
    instance.unmount();
    await saving;
  }
}

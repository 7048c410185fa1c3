/**
 * What the REPL's read-only commands (`/status`, `/config`, `/doctor`) and the memory commands (`#`, `/memory`)
 * need from the installation: provided by the CLI (src/cli/session-info.ts), which knows the runtime, so the view
 * has no file-system or environment policy of its own.
 */
import type { MemoryTarget } from '../context/memory-note.js';
import type { AddRootResult } from '../tools/files/workspace-roots.js';

export interface ReplInfoPort {
  /** `/status`: lines about the installation, account and settings (the view adds model, mode and session). */
  statusLines(): string[];
  /** `/config`: the settings in effect, one `key: value (source)` line each. */
  configLines(): string[];
  /** `/doctor`: checks, each `✓ …` or `✗ … — fix: …`. */
  doctorLines(): Promise<string[]>;
  /** The files `#` and `/memory` offer, in the picker's order. */
  memoryTargets(): MemoryTarget[];
  /** Appends a `#` note to a target; returns the file written. Throws MemoryNoteError. */
  addMemoryNote(target: MemoryTarget, note: string): string;
  /** `/memory`: opens the file in `$VISUAL`/`$EDITOR` (the terminal is handed over meanwhile); a notice line. */
  editFile(path: string): string;
  /** Writes `/export`'s Markdown to a file (relative to the project); returns its absolute path. */
  exportTo(file: string, markdown: string): string;
  /** `/add-dir`: what adding `dir` (relative to the project) would do: its real path, or one line on what is wrong. */
  checkDirectory(dir: string): AddRootResult;
  /** `/add-dir`: adds the directory to the session's roots (the tools may use it from the next step). */
  addDirectory(dir: string): AddRootResult;
  /** `/add-dir`'s "remember": writes it to the project's local settings file; returns the file. Throws. */
  rememberDirectory(real: string): string;
  /**
   * Settings `statusLine`: runs its command with the state as JSON (Claude Code's status-line input); resolves
   * with the line to show, or undefined (none configured, failed, hung). Absent when no status line is configured.
   */
  statusLine?: (state: StatusState) => Promise<string | undefined>;
  /** `/sandbox`: the Bash sandbox's state, after switching it on or off for this session when `on` is given. */
  sandbox(on: boolean | undefined): Promise<string[]>;

  /** `/output-style [name]`: lists the styles, or uses one; resolves with the notice. */
  outputStyle?: (args: string) => Promise<string>;
  /** `/plugin [verb …]`: the plugins' state, or one of `mca plugin`'s verbs; resolves with the notice. */
  plugin?: (args: string) => Promise<string>;
  /** `/thinking [on|off]`: toggles or sets extended thinking; the notice. */
  thinking?: (args: string) => string;
}

/** What the REPL knows for a custom status line. */
export interface StatusState {
  sessionId: string;
  model: string;
  cwd: string;
  costUsd: number;
  contextTokens: number | null;
  contextWindow: number;
}

/**
 * Where hooks come from: the `hooks` key of the user's `$MCA_HOME/settings.json` and `~/.claude/settings.json`,
 * then the project's settings files (the same files and order as the permission rules, settings-files.ts). All
 * scopes run together. The user's hooks always apply; a project's hooks are executables the repository brings, so
 * they run only once the user trusts the project (DESIGN.md "Trust boundaries"); until then they are `pending`,
 * named in one notice and in the trust question, never run.
 *
 * `disableAllHooks: true` in a user file turns every hook off. In a project file it turns the project's hooks off,
 * and the user's only when the project is trusted (an untrusted repository cannot switch off the user's guard rails).
 *
 * This module only reads and parses (no process is spawned, the engine is not loaded): with no hook configured the
 * caller never imports the engine. A file that is missing is skipped silently; one that is unreadable or not JSON
 * is already reported by the permission loader, which reads the same files, so it is skipped here without a
 * second line.
 */
import type { ProjectCommandBox } from '../tools/processes/bash-box.js';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EnvironmentView } from '../config/child-environment.js';
import { readBoundedFile } from '../fs/bounded-read.js';
import { PROJECT_SETTINGS_FILES, SETTINGS_MAX_BYTES } from '../permissions/settings-files.js';
import { parseHooksSetting, type HookCommand, type HookScope } from './hook-config.js';
import type { HookEngine } from './hook-engine.js';
import { shortCommand } from './hook-text.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';

export interface HookSourceOptions {
  projectRoot: string;
  mcaHome: string;
  /** The user's home (for `~/.claude/settings.json`); defaults to os.homedir(). */
  home?: string;
  /** The user trusts this project (`mca trust` or the REPL's question). */
  trusted: boolean;
  /** The runtime's environment (src/config/child-environment.ts); absent: process.env with the session's overlay. */
  env?: EnvironmentView;
  /** Runs the project's own hook commands in the sandbox while it is on (engine option). */
  boxProjectCommand?: ProjectCommandBox | undefined;
  /**
   * Plugins' hooks (src/plugins), after the settings files' ones: a plugin the user enabled has scope `user`, one
   * only a project enabled has scope `project` (held back like the project's own until it is trusted).
   */
  plugins?: readonly HookCommand[] | undefined;
}

export interface LoadedHooks {
  /** The hooks in effect, in settings order (user files first). Empty when none or all are disabled. */
  readonly active: readonly HookCommand[];
  /** The project's hooks held back because the project is not trusted. */
  readonly pending: readonly HookCommand[];
  /** One line per thing skipped or held back. */
  readonly notices: readonly string[];
  /** The file whose `disableAllHooks` turned hooks off, if one did. */
  readonly disabledBy?: string;
}

interface SettingsFile {
  path: string;
  scope: HookScope;
  values: Record<string, unknown>;
}

function readSettingsObject(path: string, root: string | undefined): Record<string, unknown> | undefined {
  const read = readBoundedFile(path, { maxBytes: SETTINGS_MAX_BYTES, ...(root ? { root } : {}) });
  if (!read.ok) return undefined;
  try {
    const parsed: unknown = JSON.parse(read.text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Every settings file that exists and parses, user files first, in load order. */
export function settingsFiles(options: HookSourceOptions): SettingsFile[] {
  let root = options.projectRoot;
  try {
    root = realpathSync(root);
  } catch {
    // A missing root has no project files; the user's still apply.
  }
  const home = options.home ?? homedir();
  const candidates: Array<{ path: string; scope: HookScope; root?: string }> = [
    { path: join(options.mcaHome, 'settings.json'), scope: 'user' },
    { path: join(home, '.claude', 'settings.json'), scope: 'user' },
    ...PROJECT_SETTINGS_FILES.map((file) => ({ path: join(root, file), scope: 'project' as const, root })),
  ];
  const files: SettingsFile[] = [];
  for (const candidate of candidates) {
    const values = readSettingsObject(candidate.path, candidate.root);
    if (values) files.push({ path: candidate.path, scope: candidate.scope, values });
  }
  return files;
}

function disableFlag(file: SettingsFile, notices: string[]): boolean {
  const value = file.values.disableAllHooks;
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    notices.push(`ignored disableAllHooks in ${file.path}: it must be true or false`);
    return false;
  }
  return value;
}

/** Loads the hooks of every scope (see the module comment). Never throws. */
export function loadHooks(options: HookSourceOptions): LoadedHooks {
  const loaded = collectHooks(options);
  return { ...loaded, notices: loaded.notices.map(neutralizeControlSequences) };
}

function collectHooks(options: HookSourceOptions): LoadedHooks {
  const notices: string[] = [];
  const files = settingsFiles(options);
  const user: HookCommand[] = [];
  const project: HookCommand[] = [];
  let userDisabledBy: string | undefined;
  let projectDisabledBy: string | undefined;
  for (const file of files) {
    const commands = parseHooksSetting(file.values, file.path, file.scope, notices);
    (file.scope === 'user' ? user : project).push(...commands);
    if (disableFlag(file, notices)) {
      if (file.scope === 'user') userDisabledBy ??= file.path;
      else projectDisabledBy ??= file.path;
    }
  }
  for (const hook of options.plugins ?? []) (hook.scope === 'user' ? user : project).push(hook);
  if (userDisabledBy) return { active: [], pending: [], notices, disabledBy: userDisabledBy };
  if (!options.trusted) {
    const pending = projectDisabledBy ? [] : project;
    if (pending.length > 0) {
      notices.push(
        `ignored ${pending.length} hook command(s) from this project's settings ` +
          `(${[...new Set(pending.map((hook) => shortCommand(hook.command)))].join(', ')}): the project is not trusted; ` +
          'run `mca trust` to use them',
      );
    }
    return { active: user, pending, notices };
  }
  if (projectDisabledBy) return { active: [], pending: [], notices, disabledBy: projectDisabledBy };
  return { active: [...user, ...project], pending: [], notices };
}

/** The session's hooks: what was loaded, and the engine when at least one hook is in effect. */
export interface OpenedHooks {
  readonly loaded: LoadedHooks;
  readonly engine?: HookEngine;
}

/**
 * Loads the hooks and, only when one is in effect, imports and builds the engine: a session without hooks loads
 * nothing more than this module and spawns nothing.
 */
export async function openHooks(options: HookSourceOptions): Promise<OpenedHooks> {
  const loaded = loadHooks(options);
  if (loaded.active.length === 0) return { loaded };
  const { HookEngine: Engine } = await import('./hook-engine.js');
  const box = options.boxProjectCommand;
  return {
    loaded,
    engine: new Engine(loaded.active, {
      projectRoot: options.projectRoot,
      ...(options.env ? { env: options.env } : {}),
      ...(box ? { boxProjectCommand: box } : {}),
    }),
  };
}

/**
 * Adds an allow rule the user chose in the REPL ("always allow") to the project's `.claude/settings.local.json`
 * (where Claude Code writes it), keeping whatever else the file holds, and makes git ignore that file the way
 * Claude Code does (src/permissions/local-gitignore.ts). An older `.mca/settings.local.json` is still read as
 * before (settings-files.ts) and left as it is; new rules go to the `.claude` file only. Like every project settings file, its allow rules take effect in later
 * sessions only while the project is trusted. Written atomically through src/fs/atomic-write.ts: a random,
 * exclusively created temp name (a planted `settings.local.json.<pid>.tmp` symlink is never followed), and a
 * `.mca` that is a symlink or resolves outside the project is refused.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { AtomicWriteError, controlDirectory, writeFileAtomic } from '../fs/atomic-write.js';
import { SETTINGS_MAX_BYTES } from './settings-files.js';
import { McaError } from '../errors/mca-error.js';
import { ensureGitIgnored } from './local-gitignore.js';

export const LOCAL_SETTINGS_FILE = '.claude/settings.local.json';

export class SettingsWriteError extends McaError {
  readonly code = 'SETTINGS_UNWRITABLE' as const;
}

/** Adds `value` to the list `permissions.<key>` of the local settings file; returns the file. */
function addToPermissionList(projectRoot: string, key: 'allow' | 'additionalDirectories', value: string): string {
  return editLocalSettings(
    projectRoot,
    (settings) => {
      const permissions = (settings.permissions ?? {}) as Record<string, unknown>;
      const list = Array.isArray(permissions[key]) ? [...(permissions[key] as unknown[])] : [];
      if (!list.includes(value)) list.push(value);
      return { ...settings, permissions: { ...permissions, [key]: list } };
    },
    key === 'allow' ? 'the rule was not saved' : 'the directory was not saved',
  );
}

export function addLocalAllowRule(projectRoot: string, rule: string): string {
  return addToPermissionList(projectRoot, 'allow', rule);
}

/**
 * `/add-dir`'s "remember": adds the directory to `permissions.additionalDirectories` of the same file (as Claude
 * Code does). Like the file's allow rules it applies in later sessions only while the project is trusted.
 */
export function addLocalDirectory(projectRoot: string, directory: string): string {
  return addToPermissionList(projectRoot, 'additionalDirectories', directory);
}

/**
 * Changes the project's local settings file (`edit` gets what it holds, or `{}`), written the same safe way as an
 * allow rule; `unsaved` ends the error line when it cannot be. Returns the file.
 */
export function editLocalSettings(
  projectRoot: string,
  edit: (settings: Record<string, unknown>) => Record<string, unknown>,
  unsaved: string,
): string {
  const root = realpathSync(projectRoot);
  const file = join(root, LOCAL_SETTINGS_FILE);
  const read = readBoundedFile(file, { maxBytes: SETTINGS_MAX_BYTES, root });
  let settings: Record<string, unknown> = {};
  if (read.ok) {
    try {
      const parsed: unknown = JSON.parse(read.text);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        settings = parsed as Record<string, unknown>;
      } else throw new Error('not an object');
    } catch (error) {
      throw new SettingsWriteError(`${file} is not a JSON object (${(error as Error).message}); ${unsaved}`);
    }
  } else if (read.reason !== 'missing') {
    throw new SettingsWriteError(`${read.message}; ${unsaved}`);
  }
  const next = edit(settings);
  try {
    controlDirectory(root, '.claude');
    writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, { root, mode: 0o644 });
  } catch (error) {
    if (error instanceof AtomicWriteError) throw new SettingsWriteError(`${error.message}; ${unsaved}`);
    throw new SettingsWriteError(`cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    ensureGitIgnored(root, LOCAL_SETTINGS_FILE);
  } catch {
    // The change is saved; an unwritable global excludes file only means git may list the file.
  }
  return file;
}

/**
 * Adds an allow rule the user chose in the REPL ("always allow") to the project's `.mca/settings.local.json`,
 * keeping whatever else the file holds. Like every project settings file, its allow rules take effect in later
 * sessions only while the project is trusted. Written atomically through src/fs/control-write.ts: a random,
 * exclusively created temp name (a planted `settings.local.json.<pid>.tmp` symlink is never followed), and a
 * `.mca` that is a symlink or resolves outside the project is refused.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { controlDirectory, ControlWriteError, writeControlFile } from '../fs/control-write.js';
import { SETTINGS_MAX_BYTES } from './settings-files.js';
import { McaError } from '../errors/mca-error.js';

export const LOCAL_SETTINGS_FILE = '.mca/settings.local.json';

export class SettingsWriteError extends McaError {
  readonly code = 'SETTINGS_UNWRITABLE' as const;
}

export function addLocalAllowRule(projectRoot: string, rule: string): string {
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
      throw new SettingsWriteError(
        `${file} is not a JSON object (${(error as Error).message}); the rule was not saved`,
      );
    }
  } else if (read.reason !== 'missing') {
    throw new SettingsWriteError(`${read.message}; the rule was not saved`);
  }
  const permissions = (settings.permissions ?? {}) as Record<string, unknown>;
  const allow = Array.isArray(permissions.allow) ? [...(permissions.allow as unknown[])] : [];
  if (!allow.includes(rule)) allow.push(rule);
  const next = { ...settings, permissions: { ...permissions, allow } };
  try {
    controlDirectory(root, '.mca');
    writeControlFile(file, `${JSON.stringify(next, null, 2)}\n`, { root, mode: 0o644 });
  } catch (error) {
    if (error instanceof ControlWriteError) throw new SettingsWriteError(`${error.message}; the rule was not saved`);
    throw new SettingsWriteError(`cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return file;
}

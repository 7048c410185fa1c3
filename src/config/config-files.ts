/**
 * The two config files and what each may set (DESIGN.md "Trust boundaries"). The user's own
 * `$MCA_HOME/config.json` is trusted with every key. A project's `.mca/config.json` comes with the repository,
 * so it may only tune harmless things: a key that chooses an endpoint, a credential, a permission or where mca
 * writes is ignored with one warning line, whatever its spelling.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';

/** Config files are a few hundred bytes; anything this big is not one (or is /dev/zero behind a symlink). */
export const CONFIG_MAX_BYTES = 1024 * 1024;

/** The only keys a project file may set: they change how mca works, never whom it talks to or what it may do. */
export const PROJECT_SAFE_KEYS: ReadonlySet<string> = new Set([
  'model',
  'summaryModel',
  'fallbackModel',
  'contextWindow',
  'compressionThreshold',
  'minRetainRounds',
  'summaryTimeoutMs',
  'maxSteps',
  'maxOutputTokens',
  'streamIdleTimeoutMs',
  'maxRepeatedActions',
  'codeLawMaxChars',
]);

/** `file` names where the values came from, for error lines (absent when there was no file). */
export type ConfigFileResult =
  | { ok: true; values: Record<string, unknown>; file?: string }
  | { ok: false; error: string }
  | { ok: 'skipped'; warning: string };

function parseObject(text: string, label: string): ConfigFileResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${label} is not valid JSON: ${(error as Error).message}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, error: `${label} must contain a JSON object` };
  }
  return { ok: true, values: parsed as Record<string, unknown>, file: label };
}

/** `$MCA_HOME/config.json`: may be a symlink anywhere (dotfile managers), but must be a regular, small file. */
export function readUserConfig(mcaHome: string): ConfigFileResult {
  const file = join(mcaHome, 'config.json');
  const read = readBoundedFile(file, { maxBytes: CONFIG_MAX_BYTES });
  if (read.ok) return parseObject(read.text, file);
  if (read.reason === 'missing') return { ok: true, values: {} };
  return { ok: false, error: `${read.message}; fix or remove it` };
}

/**
 * `<project>/.mca/config.json`: must be a regular file inside the project; anything else (a symlink out, a
 * FIFO, a device, an oversized file) is skipped with one warning. Keys outside PROJECT_SAFE_KEYS are dropped.
 */
export function readProjectConfig(projectRoot: string, warnings: string[]): ConfigFileResult {
  let root: string;
  try {
    root = realpathSync(projectRoot);
  } catch {
    return { ok: true, values: {} };
  }
  const file = join(root, '.mca', 'config.json');
  const read = readBoundedFile(file, { maxBytes: CONFIG_MAX_BYTES, root });
  if (!read.ok) {
    if (read.reason === 'missing') return { ok: true, values: {} };
    return { ok: 'skipped', warning: `ignored ${read.message}` };
  }
  const parsed = parseObject(read.text, file);
  if (parsed.ok !== true) return parsed;
  const kept: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(parsed.values)) {
    if (PROJECT_SAFE_KEYS.has(key)) kept[key] = value;
    else ignored.push(JSON.stringify(key));
  }
  if (ignored.length > 0) {
    warnings.push(
      `ignored ${ignored.join(', ')} in ${file}: a project may only set ${[...PROJECT_SAFE_KEYS].join(', ')}; ` +
        'endpoints, credentials, permissions and MCA_HOME come only from your own config, the environment or flags',
    );
  }
  return { ok: true, values: kept, file };
}

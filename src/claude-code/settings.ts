/**
 * The non-permission keys of Claude Code's settings files (the files settings-files.ts reads for rules), applied
 * with Claude Code's meaning so nothing in a Claude Code set-up is ignored silently:
 * - `env`: variables set for the session (mca's own variables such as ANTHROPIC_BASE_URL included, and the
 *   commands it runs); a later file wins per variable, and the settings win over the shell, as in Claude Code.
 * - `model`: the model, below ANTHROPIC_MODEL / MCA_MODEL and `--model`.
 * - `fallbackModel`: the models tried when the main one is overloaded or not found, below `--fallback-model`.
 * - `sandbox`: collected per file as written; src/sandbox/sandbox-settings.ts resolves it under the trust rule.
 * Trust (DESIGN.md "Trust boundaries"): the user's files always apply; a project's `env` (which can name the
 * endpoint or a credential) applies only in a trusted project, otherwise it is named once as ignored. A project's
 * `model` and `fallbackModel` narrow nothing and apply like `.mca/config.json`'s.
 * Every other key gets one warning naming the key and the file (once per start), except the keys mca implements
 * elsewhere (permissions, hooks, MCP approvals) and `$schema`.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { PERMISSION_MODES, type PermissionMode } from '../config/config-choices.js';
import { MAX_FALLBACK_MODELS } from '../config/config-schema.js';

const MAX_BYTES = 1024 * 1024;

/** Project settings files, relative to the project root, in load order (later wins). */
export const PROJECT_SETTINGS = [
  '.mca/settings.json',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.mca/settings.local.json',
] as const;

/** Keys mca reads from settings files: here (env, model), in settings-files.ts (permissions), hooks and MCP. */
export const KNOWN_SETTINGS_KEYS: ReadonlySet<string> = new Set([
  '$schema',
  'env',
  'model',
  'fallbackModel',
  'permissions',
  'hooks',
  'disableAllHooks',
  'enabledMcpjsonServers',
  'enableAllProjectMcpServers',
  'disabledMcpjsonServers',
  'statusLine',
  'sandbox',
  'apiKeyHelper',
  'includeCoAuthoredBy',
  'attribution',
  'cleanupPeriodDays',
  'alwaysThinkingEnabled',
  'outputStyle',
  'enabledPlugins',
  'extraKnownMarketplaces',
]);

/** The `permissions` keys mca applies; others are named in the one unsupported-keys line. */
const KNOWN_PERMISSION_KEYS: ReadonlySet<string> = new Set([
  'allow',
  'ask',
  'deny',
  'additionalDirectories',
  'defaultMode',
]);

/** The project files that are the user's own (not committed by Claude Code's convention) and may add directories. */
export const LOCAL_SETTINGS: ReadonlySet<string> = new Set(['.claude/settings.local.json', '.mca/settings.local.json']);

export interface ClaudeSettings {
  /** Variables to set for the session, from the files allowed to set them. */
  env: Record<string, string>;
  /** The last file's `model`, with that file. */
  model?: { value: string; file: string };
  /**
   * The last file's `fallbackModel` (a name or a list of at most three), with that file: as in Claude Code the
   * lists of several files are not merged, the last one read stands for the whole chain.
   */
  fallbackModel?: { value: string[]; file: string };
  /**
   * `permissions.additionalDirectories` (more roots for the file tools), as written, with their file. Only the
   * user's files and, in a trusted project, its local files may add one: a shared project file (a cloned
   * repository's) never does.
   */
  additionalDirectories: Array<{ dir: string; file: string }>;
  /**
   * `permissions.defaultMode` of the last file that set one the file may set: a project file never turns on
   * bypassPermissions (only the user's own files, a flag or the environment can).
   */
  defaultMode?: { value: PermissionMode; file: string };
  /** Settings `statusLine`'s command, from the last file that may set one (a project's only when trusted). */
  statusLine?: { command: string; file: string };
  /**
   * Each file's `sandbox` object as written, in load order, and whether it is a project file (src/sandbox resolves
   * them: a project that is not trusted may only narrow the box).
   */
  sandbox: Array<{ file: string; value: unknown; project: boolean }>;

  /** Settings `apiKeyHelper`: a command that prints the API key (a project's only when trusted). */
  apiKeyHelper?: { command: string; file: string };
  /**
   * The trailer the model ends its commit messages with: COMMIT_ATTRIBUTION unless `includeCoAuthoredBy` is false
   * ('') or `attribution.commit` gives the text ('' for none). The last file that sets either wins.
   */
  commitAttribution: string;
  /** `cleanupPeriodDays` from the user's own files (a project's would delete the sessions of every project). */
  cleanupPeriodDays?: number;
  /** `alwaysThinkingEnabled` of the last file that sets it: extended thinking on or off at start. */
  alwaysThinking?: { value: boolean; file: string };
  /** `outputStyle` of the last file that sets it (a style name; output-styles.ts finds its text). */
  outputStyle?: { value: string; file: string };
  /**
   * Each file's `enabledPlugins` as written, in load order (src/plugins/enabled-plugins.ts reads them, only when
   * there is one: who switched a plugin on decides its trust).
   */
  enabledPlugins: Array<{ value: unknown; file: string; project: boolean }>;
  /** Keys mca does not implement, each with the file that has it (`/status` and `mca doctor` list them). */
  unsupported: Array<{ key: string; file: string }>;
  /** One line each: an ignored project `env`, a bad value; and at most one line naming every unsupported key. */
  notices: string[];
}

export interface ClaudeSettingsSources {
  projectRoot: string;
  mcaHome: string;
  home: string;
  /** The project is trusted: its `env` applies. */
  trusted: boolean;
}

export function readObject(file: string, root: string | undefined): Record<string, unknown> | undefined {
  const read = readBoundedFile(file, { maxBytes: MAX_BYTES, ...(root ? { root } : {}) });
  if (!read.ok) return undefined;
  try {
    const parsed: unknown = JSON.parse(read.text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // settings-files.ts already names a broken file once.
  }
  return undefined;
}

function unknownKeys(settings: Record<string, unknown>, file: string): Array<{ key: string; file: string }> {
  const found: Array<{ key: string; file: string }> = [];
  for (const key of Object.keys(settings)) if (!KNOWN_SETTINGS_KEYS.has(key)) found.push({ key, file });
  const permissions = settings.permissions;
  if (permissions !== null && typeof permissions === 'object' && !Array.isArray(permissions)) {
    for (const key of Object.keys(permissions)) {
      if (!KNOWN_PERMISSION_KEYS.has(key)) found.push({ key: `permissions.${key}`, file });
    }
  }
  return found;
}

/** The one line that names every unsupported key of this start, grouped by file ('' when there are none). */
export function unsupportedKeysLine(unsupported: ReadonlyArray<{ key: string; file: string }>): string {
  if (unsupported.length === 0) return '';
  const byFile = new Map<string, string[]>();
  for (const { key, file } of unsupported) byFile.set(file, [...(byFile.get(file) ?? []), key]);
  const parts = [...byFile].map(([file, keys]) => `${keys.join(', ')} (${file})`);
  return `settings keys mca does not implement, ignored: ${parts.join('; ')}`;
}

/** A file's `statusLine` (`{type: "command", command}`): a project's runs a command, so only once it is trusted. */
function statusLineOf(value: unknown, file: string, untrustedProject: boolean, result: ClaudeSettings): void {
  if (value === undefined) return;
  const entry = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  if (entry.type !== 'command' || typeof entry.command !== 'string' || entry.command.trim() === '') {
    result.notices.push(`ignored "statusLine" in ${file}: it must be {"type": "command", "command": "…"}`);
    return;
  }
  if (untrustedProject) {
    result.notices.push(`ignored "statusLine" in ${file}: the project is not trusted; run \`mca trust\` to use it`);
    return;
  }
  result.statusLine = { command: entry.command, file };
}

/** mca's commit trailer (Claude Code's names Claude); `.invalid` is the reserved domain that never receives mail. */
export const COMMIT_ATTRIBUTION = 'Co-Authored-By: mca <noreply@mca.invalid>';

/** A file's `includeCoAuthoredBy` (boolean) and `attribution.commit` (the text; it wins when both are set). */
function attributionOf(settings: Record<string, unknown>, file: string, result: ClaudeSettings): void {
  const include = settings.includeCoAuthoredBy;
  if (include !== undefined) {
    if (typeof include === 'boolean') result.commitAttribution = include ? COMMIT_ATTRIBUTION : '';
    else result.notices.push(`ignored "includeCoAuthoredBy" in ${file}: it must be true or false`);
  }
  const attribution = settings.attribution;
  if (attribution === undefined) return;
  const commit =
    attribution !== null && typeof attribution === 'object' ? (attribution as Record<string, unknown>).commit : null;
  if (commit === undefined) return;
  if (typeof commit === 'string') result.commitAttribution = commit.trim();
  else result.notices.push(`ignored "attribution" in ${file}: it must be {"commit": "…"}`);
}

/** A file's `cleanupPeriodDays`: a whole number of days, at least 1; only the user's files may set it. */
function cleanupPeriodOf(value: unknown, file: string, project: boolean, result: ClaudeSettings): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    result.notices.push(`ignored "cleanupPeriodDays" in ${file}: it must be a whole number of days, at least 1`);
  } else if (project) {
    result.notices.push(`ignored "cleanupPeriodDays" in ${file}: only your own settings may set it`);
  } else result.cleanupPeriodDays = value;
}

/** A file's `apiKeyHelper` (a shell command): a project's runs a command and names the credential, so only trusted. */
function apiKeyHelperOf(value: unknown, file: string, untrustedProject: boolean, result: ClaudeSettings): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || value.trim() === '') {
    result.notices.push(`ignored "apiKeyHelper" in ${file}: it must be a command`);
    return;
  }
  if (untrustedProject) {
    result.notices.push(`ignored "apiKeyHelper" in ${file}: the project is not trusted; run \`mca trust\` to use it`);
    return;
  }
  result.apiKeyHelper = { command: value, file };
}

/** A file's `permissions.defaultMode`, if it names a mode that file may set; otherwise a notice says why not. */
function defaultModeOf(
  settings: Record<string, unknown>,
  file: string,
  { project, trusted }: { project: boolean; trusted: boolean },
  result: ClaudeSettings,
): void {
  const permissions = settings.permissions;
  if (permissions === null || typeof permissions !== 'object' || Array.isArray(permissions)) return;
  const mode = (permissions as Record<string, unknown>).defaultMode;
  if (mode === undefined) return;
  if (typeof mode !== 'string' || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    result.notices.push(
      `ignored permissions.defaultMode ${JSON.stringify(mode)} in ${file}: mca knows ${PERMISSION_MODES.join(', ')}`,
    );
    return;
  }
  if (project && !trusted && mode === 'acceptEdits') {
    result.notices.push(
      `ignored permissions.defaultMode "acceptEdits" in ${file}: the project is not trusted; run \`mca trust\` to use it`,
    );
    return;
  }
  if (project && mode === 'bypassPermissions') {
    result.notices.push(
      `ignored permissions.defaultMode "bypassPermissions" in ${file}: a project cannot turn it on (set it in your own settings, or pass --permission-mode)`,
    );
    return;
  }
  result.defaultMode = { value: mode as PermissionMode, file };
}

/** Reads every settings file's `env` and `model`, and names every key mca does not implement. */
export function readClaudeSettings(sources: ClaudeSettingsSources): ClaudeSettings {
  const result: ClaudeSettings = {
    env: {},
    additionalDirectories: [],
    sandbox: [],
    commitAttribution: COMMIT_ATTRIBUTION,
    enabledPlugins: [],
    unsupported: [],
    notices: [],
  };
  let root = sources.projectRoot;
  try {
    root = realpathSync(root);
  } catch {
    // No project directory: only the user's files.
  }
  const files: Array<{ file: string; root: string | undefined; project: boolean; local: boolean }> = [
    { file: join(sources.mcaHome, 'settings.json'), root: undefined, project: false, local: false },
    { file: join(sources.home, '.claude', 'settings.json'), root: undefined, project: false, local: false },
    ...PROJECT_SETTINGS.map((relative) => ({
      file: join(root, relative),
      root,
      project: true,
      local: LOCAL_SETTINGS.has(relative),
    })),
  ];
  for (const { file, root: inside, project, local } of files) {
    const settings = readObject(file, inside);
    if (!settings) continue;
    result.unsupported.push(...unknownKeys(settings, file));
    defaultModeOf(settings, file, { project, trusted: sources.trusted }, result);
    if (settings.sandbox !== undefined) result.sandbox.push({ file, value: settings.sandbox, project });
    const may = !project || (local && sources.trusted);
    addedDirectories(settings, file, may, result);
    const env = settings.env;
    if (env !== undefined) {
      if (env === null || typeof env !== 'object' || Array.isArray(env)) {
        result.notices.push(`ignored "env" in ${file}: it must be an object of strings`);
      } else if (project && !sources.trusted) {
        result.notices.push(
          `ignored "env" in ${file} (${Object.keys(env).join(', ')}): the project is not trusted; run \`mca trust\` to use it`,
        );
      } else {
        for (const [name, value] of Object.entries(env as Record<string, unknown>)) {
          if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
            result.env[name] = String(value);
          } else result.notices.push(`ignored env.${name} in ${file}: the value must be a string`);
        }
      }
    }
    const model = settings.model;
    if (model !== undefined) {
      if (typeof model === 'string' && model.trim() !== '') result.model = { value: model.trim(), file };
      else result.notices.push(`ignored "model" in ${file}: it must be a model name`);
    }
    fallbackModels(settings.fallbackModel, file, result);
    statusLineOf(settings.statusLine, file, project && !sources.trusted, result);
    apiKeyHelperOf(settings.apiKeyHelper, file, project && !sources.trusted, result);
    attributionOf(settings, file, result);
    cleanupPeriodOf(settings.cleanupPeriodDays, file, project, result);
    const style = settings.outputStyle;
    if (typeof style === 'string' && style.trim() !== '') result.outputStyle = { value: style.trim(), file };
    else if (style !== undefined) result.notices.push(`ignored "outputStyle" in ${file}: it must be a style name`);
    if (settings.enabledPlugins !== undefined)
      result.enabledPlugins.push({ value: settings.enabledPlugins, file, project });
    const thinking = settings.alwaysThinkingEnabled;
    if (typeof thinking === 'boolean') result.alwaysThinking = { value: thinking, file };
    else if (thinking !== undefined) {
      result.notices.push(`ignored "alwaysThinkingEnabled" in ${file}: it must be true or false`);
    }
  }
  const unsupported = unsupportedKeysLine(result.unsupported);
  if (unsupported !== '') result.notices.push(unsupported);
  return result;
}

/** Reads one file's `fallbackModel` (a name, or a list of 1 to MAX_FALLBACK_MODELS names), or names why not. */
function fallbackModels(value: unknown, file: string, result: ClaudeSettings): void {
  if (value === undefined) return;
  const list = typeof value === 'string' ? [value] : value;
  const names = Array.isArray(list)
    ? list.filter((entry): entry is string => typeof entry === 'string').map((entry) => entry.trim())
    : [];
  const usable = Array.isArray(list) && names.length === list.length && names.every((name) => name !== '');
  if (!usable || names.length === 0 || names.length > MAX_FALLBACK_MODELS) {
    result.notices.push(
      `ignored "fallbackModel" in ${file}: it must be a model name or a list of 1 to ${MAX_FALLBACK_MODELS} model names`,
    );
    return;
  }
  result.fallbackModel = { value: names, file };
}

/** Collects `permissions.additionalDirectories` from one file, or names why it is ignored. */
function addedDirectories(settings: Record<string, unknown>, file: string, may: boolean, result: ClaudeSettings): void {
  const permissions = settings.permissions;
  if (permissions === null || typeof permissions !== 'object' || Array.isArray(permissions)) return;
  const list = (permissions as Record<string, unknown>).additionalDirectories;
  if (list === undefined) return;
  if (!Array.isArray(list) || !list.every((entry): entry is string => typeof entry === 'string')) {
    result.notices.push(`ignored permissions.additionalDirectories in ${file}: it must be a list of paths`);
    return;
  }
  if (!may) {
    result.notices.push(
      `ignored permissions.additionalDirectories in ${file}: only your own settings (user files, or a trusted project's settings.local.json) may add directories`,
    );
    return;
  }
  for (const dir of list) if (dir.trim() !== '') result.additionalDirectories.push({ dir, file });
}

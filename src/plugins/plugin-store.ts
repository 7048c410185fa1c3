/**
 * Where plugins live, in Claude Code's layout and file formats so either program reads the other's:
 * `<plugins>/known_marketplaces.json` (`{name: {source, installLocation, lastUpdated}}`), `<plugins>/marketplaces/
 * <name>/` (a git marketplace's clone), `<plugins>/cache/<marketplace>/<plugin>/<version>/` (an installed copy) and
 * `<plugins>/installed_plugins.json` (`{version: 2, plugins: {"<plugin>@<marketplace>": [{scope, installPath,
 * version, installedAt, lastUpdated}]}}`). mca writes only `$MCA_HOME/plugins/` and `$MCA_HOME/settings.json`; it
 * reads `~/.claude/plugins/` too, so plugins a Claude Code user installed load as they are (mca's own entry wins).
 */
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { PluginError } from './plugin-error.js';

export type JsonObject = Record<string, unknown>;

export interface PluginPlaces {
  mcaHome: string;
  home: string;
}

const MAX_BYTES = 4 * 1024 * 1024;

export function isRecord(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** mca's own plugin folder (written), then Claude Code's (read only). */
export function pluginHomes(places: PluginPlaces): { own: string; claude: string } {
  return { own: join(places.mcaHome, 'plugins'), claude: join(places.home, '.claude', 'plugins') };
}

export function userSettingsFile(places: PluginPlaces): string {
  return join(places.mcaHome, 'settings.json');
}

/** A JSON object file; {} when missing or unusable (a broken file is named by `notices` when given). */
export function readJson(file: string, notices?: string[]): JsonObject {
  const read = readBoundedFile(file, { maxBytes: MAX_BYTES });
  if (!read.ok) {
    if (read.reason !== 'missing') notices?.push(`plugins: ignored ${read.message}`);
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(read.text);
    if (isRecord(parsed)) return parsed;
  } catch {
    // named below
  }
  notices?.push(`plugins: ignored ${file}: not a JSON object`);
  return {};
}

/** Writes a JSON object through a temp file and a rename (0600: the user's own files). */
export function writeJson(file: string, value: JsonObject): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  } catch (error) {
    throw new PluginError(
      'PLUGIN_WRITE',
      `cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

/** Changes one key of the user's `$MCA_HOME/settings.json`, keeping every other key. */
export function editUserSettings(places: PluginPlaces, key: string, edit: (value: JsonObject) => JsonObject): string {
  const file = userSettingsFile(places);
  const settings = readJson(file);
  const current = isRecord(settings[key]) ? settings[key] : {};
  const next = edit({ ...current });
  const written: JsonObject = { ...settings };
  if (Object.keys(next).length === 0) delete written[key];
  else written[key] = next;
  writeJson(file, written);
  return file;
}

export interface InstalledPlugin {
  id: string;
  installPath: string;
  version?: string;
}

/** The installed plugins of both homes (mca's own entry wins for an id in both). */
export function installedPlugins(places: PluginPlaces, notices?: string[]): Map<string, InstalledPlugin> {
  const homes = pluginHomes(places);
  const found = new Map<string, InstalledPlugin>();
  for (const home of [homes.claude, homes.own]) {
    const plugins = readJson(join(home, 'installed_plugins.json'), notices).plugins;
    if (!isRecord(plugins)) continue;
    for (const [id, entries] of Object.entries(plugins)) {
      const entry: unknown = Array.isArray(entries) ? entries.find((each) => isRecord(each)) : entries;
      if (!isRecord(entry) || typeof entry.installPath !== 'string') continue;
      found.set(id, {
        id,
        installPath: entry.installPath,
        ...(typeof entry.version === 'string' ? { version: entry.version } : {}),
      });
    }
  }
  return found;
}

/** Records (or with `undefined`, removes) one install in mca's own `installed_plugins.json`. */
export function recordInstall(places: PluginPlaces, id: string, entry: InstalledPlugin | undefined): void {
  const file = join(pluginHomes(places).own, 'installed_plugins.json');
  const current = readJson(file);
  const plugins = isRecord(current.plugins) ? { ...current.plugins } : {};
  if (entry === undefined) delete plugins[id];
  else {
    const now = new Date().toISOString();
    plugins[id] = [
      {
        scope: 'user',
        installPath: entry.installPath,
        version: entry.version ?? 'unknown',
        installedAt: now,
        lastUpdated: now,
      },
    ];
  }
  writeJson(file, { version: 2, plugins });
}

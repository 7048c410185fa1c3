/**
 * `mca plugin install|uninstall|enable|disable|list` and `/plugin`, as Claude Code's: installing copies the
 * plugin from its marketplace (a folder inside it, or a git source cloned) into `$MCA_HOME/plugins/cache/
 * <marketplace>/<plugin>/<version>/`, records it in `installed_plugins.json`, and switches it on in the user's
 * settings (`enabledPlugins["<plugin>@<marketplace>"] = true`); it loads from the next session on. Each step returns
 * the line to show; a step that cannot be done throws PluginError.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PLUGIN_MANIFEST } from '../commands/plugin-folders.js';
import { gitClone, knownMarketplaces, readMarketplace, SAFE_NAME, type MarketplaceEntry } from './marketplaces.js';
import { PluginError } from './plugin-error.js';
import {
  editUserSettings,
  installedPlugins,
  pluginHomes,
  readJson,
  recordInstall,
  type PluginPlaces,
} from './plugin-store.js';

/** `name@market`, or a bare name found in exactly one known marketplace. */
function findEntry(
  places: PluginPlaces,
  spec: string,
): { id: string; market: string; entry: MarketplaceEntry; location: string } {
  const at = spec.lastIndexOf('@');
  const name = at > 0 ? spec.slice(0, at) : spec;
  const wanted = at > 0 ? spec.slice(at + 1) : undefined;
  const markets = [...knownMarketplaces(places).values()].filter(
    (market) => wanted === undefined || market.name === wanted,
  );
  if (wanted !== undefined && markets.length === 0) {
    throw new PluginError(
      'MARKETPLACE_UNKNOWN',
      `no marketplace "${wanted}" (mca plugin marketplace add <folder | git URL>)`,
    );
  }
  const found = markets.flatMap((market) => {
    const entry = readMarketplace(market.installLocation).plugins.find((plugin) => plugin.name === name);
    return entry
      ? [{ id: `${name}@${market.name}`, market: market.name, entry, location: market.installLocation }]
      : [];
  });
  if (found.length === 0)
    throw new PluginError('PLUGIN_UNKNOWN', `no plugin "${name}" in ${wanted ?? 'any known marketplace'}`);
  if (found.length > 1) {
    throw new PluginError(
      'PLUGIN_UNKNOWN',
      `"${name}" is in several marketplaces: ${found.map((each) => each.id).join(', ')}`,
    );
  }
  return found[0] as { id: string; market: string; entry: MarketplaceEntry; location: string };
}

function versionOf(dir: string, entry: MarketplaceEntry): string {
  const manifest = readJson(join(dir, PLUGIN_MANIFEST));
  const version = typeof manifest.version === 'string' ? manifest.version : (entry.version ?? 'unknown');
  return SAFE_NAME.test(version) ? version : 'unknown';
}

/** Installs and switches on a plugin; returns the line to show. */
export async function installPlugin(places: PluginPlaces, spec: string): Promise<string> {
  const { id, market, entry } = findEntry(places, spec);
  let from: string;
  let temp: string | undefined;
  if ('path' in entry.source) from = entry.source.path;
  else {
    mkdirSync(pluginHomes(places).own, { recursive: true, mode: 0o700 });
    temp = mkdtempSync(join(pluginHomes(places).own, '.clone-'));
    from = join(temp, 'plugin');
  }
  try {
    if (temp !== undefined && 'url' in entry.source) await gitClone(entry.source.url, from);
    if (!existsSync(from)) throw new PluginError('PLUGIN_UNKNOWN', `${id}: its source ${from} does not exist`);
    const version = versionOf(from, entry);
    const target = join(pluginHomes(places).own, 'cache', market, entry.name, version);
    rmSync(target, { recursive: true, force: true });
    try {
      cpSync(from, target, {
        recursive: true,
        filter: (path) => !relative(from, path).split(/[\\/]/).includes('.git'),
      });
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new PluginError('PLUGIN_WRITE', `cannot copy ${from} to ${target} (${why})`);
    }
    recordInstall(places, id, { id, installPath: target, version });
    const file = editUserSettings(places, 'enabledPlugins', (value) => ({ ...value, [id]: true }));
    return `Installed ${id} (version ${version}) and enabled it in ${file}; it loads from the next session.`;
  } finally {
    if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
  }
}

/** An installed plugin's id from `name@market` or a bare name. */
function installedId(places: PluginPlaces, spec: string): string {
  const installed = installedPlugins(places);
  if (installed.has(spec)) return spec;
  const matches = [...installed.keys()].filter((id) => id.slice(0, id.lastIndexOf('@')) === spec);
  if (matches.length === 1) return matches[0] as string;
  if (matches.length > 1) throw new PluginError('PLUGIN_UNKNOWN', `"${spec}" is ambiguous: ${matches.join(', ')}`);
  throw new PluginError('PLUGIN_NOT_INSTALLED', `plugin "${spec}" is not installed (mca plugin list)`);
}

export function setPluginEnabled(places: PluginPlaces, spec: string, on: boolean): string {
  const id = installedId(places, spec);
  const file = editUserSettings(places, 'enabledPlugins', (value) => ({ ...value, [id]: on }));
  return `${on ? 'Enabled' : 'Disabled'} ${id} in ${file}; this takes effect from the next session.`;
}

export function uninstallPlugin(places: PluginPlaces, spec: string): string {
  const id = installedId(places, spec);
  const path = installedPlugins(places).get(id)?.installPath;
  const own = pluginHomes(places).own;
  recordInstall(places, id, undefined);
  // Only mca's own copies are removed; a plugin Claude Code installed stays where it is.
  if (path !== undefined && !relative(own, path).startsWith('..')) rmSync(path, { recursive: true, force: true });
  editUserSettings(places, 'enabledPlugins', (value) => {
    delete value[id];
    return value;
  });
  return `Uninstalled ${id}.`;
}

/** The installed plugins, each with its state in this project (`enabled` from every settings file). */
export function pluginList(places: PluginPlaces, enabled: ReadonlySet<string>): string[] {
  const installed = [...installedPlugins(places).values()];
  if (installed.length === 0) return ['No plugins installed (mca plugin install <plugin>@<marketplace>).'];
  return [
    'Installed plugins:',
    ...installed.map(
      (plugin) =>
        `  ${plugin.id}  ${plugin.version ?? ''}  ${enabled.has(plugin.id) ? 'enabled' : 'disabled'}  (${plugin.installPath})`,
    ),
  ];
}

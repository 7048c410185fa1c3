/**
 * Plugin marketplaces (Claude Code's `.claude-plugin/marketplace.json`: `{name, owner, plugins: [{name, source,
 * description?, version?}]}`), added from a local folder or a git URL. A folder is used where it is; a git URL is
 * cloned (`git clone --depth 1`, no prompt for credentials) into `$MCA_HOME/plugins/marketplaces/<name>/`. Each added
 * marketplace is recorded in `known_marketplaces.json` and in the user's settings `extraKnownMarketplaces`, with
 * Claude Code's source shapes (`{source: "directory", path}`, `{source: "git", url}`, `{source: "github", repo}`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { childEnvironment } from '../config/child-environment.js';
import { PluginError } from './plugin-error.js';
import {
  editUserSettings,
  isRecord,
  pluginHomes,
  readJson,
  writeJson,
  type JsonObject,
  type PluginPlaces,
} from './plugin-store.js';

const run = promisify(execFile);
export const MARKETPLACE_MANIFEST = join('.claude-plugin', 'marketplace.json');
export const SAFE_NAME = /^[A-Za-z0-9][\w.-]*$/;

export type MarketplaceSource =
  { source: 'directory'; path: string } | { source: 'git'; url: string } | { source: 'github'; repo: string };

export interface KnownMarketplace {
  name: string;
  source: MarketplaceSource;
  /** The folder holding `.claude-plugin/marketplace.json`. */
  installLocation: string;
}

export interface MarketplaceEntry {
  name: string;
  description?: string;
  version?: string;
  /** A folder relative to the marketplace (`./plugins/x`), or a git source to clone. */
  source: { path: string } | { url: string };
}

export interface Marketplace {
  name: string;
  plugins: MarketplaceEntry[];
}

/** Claude Code's kinds of source, from what the user typed. */
export function marketplaceSource(given: string, cwd: string): MarketplaceSource {
  if (/^(https?|ssh|git|file):\/\//.test(given) || /^[\w.-]+@[\w.-]+:/.test(given) || given.endsWith('.git')) {
    return { source: 'git', url: given };
  }
  const path = resolve(cwd, given);
  if (existsSync(path)) return { source: 'directory', path };
  if (/^[\w.-]+\/[\w.-]+$/.test(given)) return { source: 'github', repo: given };
  throw new PluginError('MARKETPLACE_SOURCE', `${given}: not a folder, a git URL or owner/repo`);
}

function cloneUrl(source: MarketplaceSource): string | undefined {
  if (source.source === 'git') return source.url;
  if (source.source === 'github') return `https://github.com/${source.repo}.git`;
  return undefined;
}

/** `git clone --depth 1 <url> <dir>`; a failure is one line with git's last words. */
export async function gitClone(url: string, dir: string): Promise<void> {
  try {
    await run('git', ['clone', '--quiet', '--depth', '1', '--', url, dir], {
      env: childEnvironment({ GIT_TERMINAL_PROMPT: '0' }),
      timeout: 300_000,
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? (error as Error).message).trim();
    // git's own reason is its `fatal:` line (the lines after it only advise).
    const lines = stderr.split('\n');
    const reason = lines.find((line) => line.startsWith('fatal:')) ?? lines.at(-1) ?? '';
    throw new PluginError('MARKETPLACE_SOURCE', `git clone ${url} failed: ${reason}`);
  }
}

function entryOf(raw: unknown, root: string): MarketplaceEntry | undefined {
  if (!isRecord(raw) || typeof raw.name !== 'string' || !SAFE_NAME.test(raw.name)) return undefined;
  const given = raw.source;
  let source: MarketplaceEntry['source'] | undefined;
  if (typeof given === 'string') {
    const path = resolve(root, given);
    const rel = relative(root, path);
    if (!rel.startsWith('..') && !isAbsolute(rel)) source = { path };
  } else if (isRecord(given)) {
    if (typeof given.url === 'string') source = { url: given.url };
    else if (typeof given.repo === 'string') source = { url: `https://github.com/${given.repo}.git` };
  }
  if (!source) return undefined;
  return {
    name: raw.name,
    source,
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    ...(typeof raw.version === 'string' ? { version: raw.version } : {}),
  };
}

/** Reads a marketplace folder's manifest; throws PluginError when it has none or it is not usable. */
export function readMarketplace(location: string): Marketplace {
  const file = join(location, MARKETPLACE_MANIFEST);
  if (!existsSync(file)) throw new PluginError('MARKETPLACE_INVALID', `${location} has no ${MARKETPLACE_MANIFEST}`);
  const manifest = readJson(file);
  if (typeof manifest.name !== 'string' || !SAFE_NAME.test(manifest.name)) {
    throw new PluginError('MARKETPLACE_INVALID', `${file}: "name" must be letters, digits, - _ .`);
  }
  // `metadata.pluginRoot` is where relative plugin sources start (Claude Code's).
  const metadata = isRecord(manifest.metadata) ? manifest.metadata : {};
  const root = typeof metadata.pluginRoot === 'string' ? resolve(location, metadata.pluginRoot) : location;
  const plugins = Array.isArray(manifest.plugins) ? manifest.plugins.flatMap((raw) => entryOf(raw, root) ?? []) : [];
  return { name: manifest.name, plugins };
}

/** Every known marketplace: Claude Code's, then mca's own (which wins on a name). */
export function knownMarketplaces(places: PluginPlaces): Map<string, KnownMarketplace> {
  const homes = pluginHomes(places);
  const known = new Map<string, KnownMarketplace>();
  for (const home of [homes.claude, homes.own]) {
    for (const [name, raw] of Object.entries(readJson(join(home, 'known_marketplaces.json')))) {
      if (!isRecord(raw) || typeof raw.installLocation !== 'string' || !isRecord(raw.source)) continue;
      known.set(name, { name, source: raw.source as MarketplaceSource, installLocation: raw.installLocation });
    }
  }
  return known;
}

function ownKnownFile(places: PluginPlaces): string {
  return join(pluginHomes(places).own, 'known_marketplaces.json');
}

/** Adds a marketplace; returns it. A name already known is replaced (its clone refreshed). */
export async function addMarketplace(places: PluginPlaces, given: string, cwd: string): Promise<KnownMarketplace> {
  const source = marketplaceSource(given, cwd);
  const url = cloneUrl(source);
  let location: string;
  if (url === undefined) {
    location = (source as { path: string }).path;
    if (!statSync(location).isDirectory()) throw new PluginError('MARKETPLACE_SOURCE', `${location} is not a folder`);
  } else {
    const clones = join(pluginHomes(places).own, 'marketplaces');
    mkdirSync(clones, { recursive: true, mode: 0o700 });
    location = join(clones, `.adding-${process.pid}-${Date.now()}`);
    await gitClone(url, location);
  }
  let marketplace: Marketplace;
  try {
    marketplace = readMarketplace(location);
  } catch (error) {
    if (url !== undefined) rmSync(location, { recursive: true, force: true });
    throw error;
  }
  if (url !== undefined) {
    const final = join(pluginHomes(places).own, 'marketplaces', marketplace.name);
    rmSync(final, { recursive: true, force: true });
    renameSync(location, final);
    location = final;
  }
  const known = readJson(ownKnownFile(places));
  known[marketplace.name] = { source, installLocation: location, lastUpdated: new Date().toISOString() };
  writeJson(ownKnownFile(places), known);
  editUserSettings(places, 'extraKnownMarketplaces', (value) => ({ ...value, [marketplace.name]: { source } }));
  return { name: marketplace.name, source, installLocation: location };
}

/** Removes a marketplace mca added (its clone too); Claude Code's own records are left alone. */
export function removeMarketplace(places: PluginPlaces, name: string): void {
  const known: JsonObject = readJson(ownKnownFile(places));
  if (!(name in known)) {
    throw new PluginError(
      'MARKETPLACE_UNKNOWN',
      `no marketplace "${name}" added with mca (mca plugin marketplace list)`,
    );
  }
  delete known[name];
  writeJson(ownKnownFile(places), known);
  if (SAFE_NAME.test(name))
    rmSync(join(pluginHomes(places).own, 'marketplaces', name), { recursive: true, force: true });
  editUserSettings(places, 'extraKnownMarketplaces', (value) => {
    delete value[name];
    return value;
  });
}

export function describeSource(source: MarketplaceSource): string {
  if (source.source === 'directory') return `Folder (${source.path})`;
  if (source.source === 'git') return `Git (${source.url})`;
  return `GitHub (${source.repo})`;
}

/**
 * The plugins a runtime loads (issue 40): `--plugin-dir` folders (the user's own flag) and the settings'
 * `enabledPlugins`, each found in the installed-plugin records of `$MCA_HOME/plugins/` or `~/.claude/plugins/`
 * (plugin-store.ts). Imported only when one is configured: a start without plugins never loads this module.
 *
 * Trust (DESIGN.md "Trust boundaries"): a plugin the user enabled (a user settings file, or the flag) is the user's;
 * its hooks run and its MCP servers start as the user's own. A plugin only a project's settings enabled is the
 * project's: its hooks are held back and its servers need trust and approval exactly as `.mcp.json` servers do
 * (scope `project`, approved by name `plugin:<plugin>:<server>`), every one of them is listed in the trust question,
 * and its commands, skills, agents and styles load only once the project is trusted.
 */

import type { ClaudeSettings } from '../claude-code/settings.js';
import { enabledPlugins } from './enabled-plugins.js';
import { readPluginFolder, type PluginConfigPart, type PluginFolder } from '../commands/plugin-folders.js';
import { readBoundedFile } from '../fs/bounded-read.js';
import { parseHooksSetting, type HookCommand } from '../hooks/hook-config.js';
import { trustLines } from '../hooks/hook-listing.js';
import { parseServerConfig, type ServerConfig } from '../mcp/server-config.js';
import { serverTrustItem } from '../mcp/server-exposure.js';
import type { TrustItem } from '../permissions/trust-items.js';
import { installedPlugins, isRecord, type JsonObject, type PluginPlaces } from './plugin-store.js';

export interface PluginInputs extends PluginPlaces {
  pluginDirs: readonly string[];
  /** The settings files' `enabledPlugins` as written. */
  enabled: ClaudeSettings['enabledPlugins'];
  projectRoot: string;
  /** The environment `${VAR}` in a server entry expands from. */
  env: NodeJS.ProcessEnv;
  /**
   * `--strict-mcp-config`: only `--mcp-config` servers start, so the plugins' servers are not read (as Claude Code
   * 2.1.332: its init then lists none of them, the plugins themselves still load).
   */
  strictMcpConfig?: boolean;
}

export interface LoadedPlugins {
  /** Every plugin found, the project's included (PluginFolder.project). */
  folders: PluginFolder[];
  hooks: HookCommand[];
  servers: ServerConfig[];
  /** What the project's plugins would switch on, for the trust question. */
  widening: TrustItem[];
  notices: string[];
}

const CONFIG_MAX_BYTES = 1024 * 1024;
const ROOT_VARIABLE = /\$\{CLAUDE_PLUGIN_ROOT\}/g;

function configObject(part: PluginConfigPart, root: string, notices: string[]): { value: JsonObject; where: string } {
  if ('inline' in part) return { value: part.inline, where: part.where };
  const read = readBoundedFile(part.file, { maxBytes: CONFIG_MAX_BYTES, root });
  if (!read.ok) {
    notices.push(`plugin: ignored ${read.message}`);
    return { value: {}, where: part.file };
  }
  try {
    const parsed: unknown = JSON.parse(read.text);
    if (isRecord(parsed)) return { value: parsed, where: part.file };
  } catch {
    // named below
  }
  notices.push(`plugin: ignored ${part.file}: not a JSON object`);
  return { value: {}, where: part.file };
}

/** A plugin's hooks, `${CLAUDE_PLUGIN_ROOT}` replaced by its folder (and set for the command). */
export function pluginHooks(plugin: PluginFolder, notices: string[]): HookCommand[] {
  const scope = plugin.project ? 'project' : 'user';
  return plugin.hooks.flatMap((part) => {
    const { value, where } = configObject(part, plugin.dir, notices);
    // hooks.json is `{"hooks": {...}}`; an inline manifest value may be the event map itself.
    const settings = isRecord(value.hooks) ? value : { hooks: value };
    return parseHooksSetting(settings, where, scope, notices).map((hook) => ({
      ...hook,
      command: hook.command.replace(ROOT_VARIABLE, plugin.dir),
      pluginRoot: plugin.dir,
    }));
  });
}

/** A plugin's MCP servers, named `plugin:<plugin>:<server>` as Claude Code names them. */
export function pluginServers(plugin: PluginFolder, env: NodeJS.ProcessEnv, notices: string[]): ServerConfig[] {
  const scope = plugin.project ? 'project' : 'user';
  const expand = { ...env, CLAUDE_PLUGIN_ROOT: plugin.dir };
  return plugin.mcpServers.flatMap((part) => {
    const { value, where } = configObject(part, plugin.dir, notices);
    const servers = isRecord(value.mcpServers) ? value.mcpServers : value;
    return Object.entries(servers).flatMap(([name, raw]) => {
      const full = `plugin:${plugin.name}:${name}`;
      // A stdio server gets CLAUDE_PLUGIN_ROOT too, for the paths it builds itself.
      const entry =
        isRecord(raw) && typeof raw.command === 'string'
          ? { ...raw, env: { CLAUDE_PLUGIN_ROOT: plugin.dir, ...(isRecord(raw.env) ? raw.env : {}) } }
          : raw;
      const parsed = parseServerConfig(full, entry, { scope, source: where }, expand);
      if (parsed.ok) return [parsed.config];
      notices.push(`MCP: server "${full}" in ${where} not used: ${parsed.message}`);
      return [];
    });
  });
}

/** Finds every configured plugin and reads its hooks and servers (nothing runs here). Never throws. */
export function loadPlugins(inputs: PluginInputs): LoadedPlugins {
  const notices: string[] = [];
  const folders: PluginFolder[] = [];
  for (const dir of inputs.pluginDirs) {
    const folder = readPluginFolder(dir, notices);
    if (folder) folders.push(folder);
  }
  const enabled = enabledPlugins(inputs.enabled, notices);
  const installed = enabled.length > 0 ? installedPlugins(inputs, notices) : new Map();
  const missing: string[] = [];
  for (const entry of enabled) {
    const found = installed.get(entry.id);
    if (!found) {
      missing.push(entry.id);
      continue;
    }
    const marketplace = entry.id.slice(entry.id.lastIndexOf('@') + 1);
    const folder = readPluginFolder(found.installPath, notices, { marketplace, project: entry.project });
    if (!folder) continue;
    if (folders.some((other) => other.name === folder.name)) {
      notices.push(`plugin ${entry.id}: a plugin named ${folder.name} is already loaded; skipped`);
      continue;
    }
    folders.push(folder);
  }
  // One line for all of them: a Claude Code user's settings may name many plugins installed only for Claude Code.
  if (missing.length > 0) {
    notices.push(`plugins enabled in settings but not installed: ${missing.join(', ')} (mca plugin install <id>)`);
  }
  const hooks = folders.flatMap((plugin) => pluginHooks(plugin, notices));
  const servers = inputs.strictMcpConfig ? [] : folders.flatMap((plugin) => pluginServers(plugin, inputs.env, notices));
  const widening: TrustItem[] = [
    ...servers
      .filter((server) => server.scope === 'project')
      .map((server) => {
        const item = serverTrustItem(server, inputs.projectRoot);
        return { ...item, text: item.text.replace(/\(\.mcp\.json\)$/, `(plugin ${pluginOf(server.name)})`) };
      }),
    ...trustLines(hooks.filter((hook) => hook.scope === 'project')).map((text): TrustItem => ({
      group: 'hooks',
      text,
      danger: true,
    })),
    ...folders
      .filter((plugin) => plugin.project)
      .map((plugin): TrustItem => ({
        group: 'extensions',
        text: `plugin ${plugin.id} (${plugin.dir}): its commands, skills, subagents and output styles`,
        danger: false,
      })),
  ];
  return { folders, hooks, servers, widening, notices };
}

function pluginOf(serverName: string): string {
  return serverName.split(':')[1] ?? serverName;
}

/** The plugin folder of an installed id, for `/plugin` and `mca plugin list`. */
export function installedFolder(places: PluginPlaces, id: string): string | undefined {
  return installedPlugins(places).get(id)?.installPath;
}

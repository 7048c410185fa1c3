/**
 * Claude Code plugin folders (issue 40): `.claude-plugin/plugin.json` names the plugin and may point its parts
 * elsewhere; without such paths the parts are its default folders. Read as Claude Code 2.1 reads them:
 * - `commands` (`commands/*.md` → `/<plugin>:<command>`), `agents` (`agents/*.md` → subagent `<plugin>:<name>`) and
 *   `outputStyles` (`output-styles/*.md` → style `<plugin>:<name>`): a manifest path (a string or a list, files or
 *   folders) replaces the default folder;
 * - `skills` (`skills/<name>/SKILL.md` → skill `<plugin>:<name>`), `hooks` (`hooks/hooks.json`) and `mcpServers`
 *   (`.mcp.json`): a manifest value (a path, a list, or the object inline) comes in addition to the default.
 * Every path stays inside the plugin folder (`../x` is refused with a notice). This module only finds the parts;
 * src/plugins reads hooks and MCP servers, and each loader (commands, skills, agents, styles) reads its own.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';

/** A config part given inline in the manifest (`"hooks": {...}`), or the file that holds it. */
export type PluginConfigPart = { file: string } | { inline: Record<string, unknown>; where: string };

export interface PluginFolder {
  name: string;
  /** The folder, resolved. */
  dir: string;
  /** `<name>@<marketplace>` for an installed plugin, `<name>@inline` for `--plugin-dir` (Claude Code's ids). */
  id: string;
  version?: string;
  /**
   * Enabled only by a project's settings file: its hooks and MCP servers are the project's (they wait for trust and
   * approval), and its other parts load only in a trusted project.
   */
  project: boolean;
  /** Files or folders of command Markdown, absolute. */
  commands: readonly string[];
  /** Files or folders of subagent Markdown, absolute. */
  agents: readonly string[];
  /** Folders holding skill folders, or skill folders themselves, absolute. */
  skills: readonly string[];
  /** Files or folders of output-style Markdown, absolute. */
  outputStyles: readonly string[];
  hooks: readonly PluginConfigPart[];
  mcpServers: readonly PluginConfigPart[];
}

export const PLUGIN_MANIFEST = join('.claude-plugin', 'plugin.json');
const PLUGIN_NAME = /^[A-Za-z0-9][\w.-]*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A manifest path inside the plugin, absolute; undefined (with a notice) for one that leaves it. */
function inside(dir: string, given: string, key: string, notices: string[]): string | undefined {
  const path = resolve(dir, given);
  const rel = relative(dir, path);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    notices.push(`plugin ${dir}: "${key}" path ${JSON.stringify(given)} leaves the plugin folder; ignored`);
    return undefined;
  }
  return path;
}

function pathsOf(dir: string, value: unknown, key: string, notices: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((entry): entry is string => typeof entry === 'string')) {
    notices.push(`plugin ${dir}: "${key}" must be a path or a list of paths; ignored`);
    return undefined;
  }
  return list.flatMap((entry) => inside(dir, entry, key, notices) ?? []);
}

/** A part whose manifest value replaces the default folder. */
function replacing(dir: string, manifest: Record<string, unknown>, key: string, folder: string, notices: string[]) {
  return pathsOf(dir, manifest[key], key, notices) ?? [join(dir, folder)];
}

/** A JSON part (hooks, MCP servers): the default file when present, then the manifest's paths or inline object. */
function configParts(
  dir: string,
  manifest: Record<string, unknown>,
  key: string,
  defaultFile: string,
  notices: string[],
): PluginConfigPart[] {
  const parts: PluginConfigPart[] = [];
  const fallback = join(dir, defaultFile);
  if (existsSync(fallback)) parts.push({ file: fallback });
  const value = manifest[key];
  const where = join(dir, PLUGIN_MANIFEST);
  if (isRecord(value)) parts.push({ inline: value, where });
  else if (Array.isArray(value) && value.some(isRecord)) {
    for (const entry of value) if (isRecord(entry)) parts.push({ inline: entry, where });
  } else {
    for (const file of pathsOf(dir, value, key, notices) ?? []) {
      if (file !== fallback) parts.push({ file });
    }
  }
  return parts;
}

/**
 * One plugin folder, or undefined with a notice when it is none. `id` defaults to `<name>@inline`; `project`
 * marks a plugin only a project's settings enabled.
 */
export function readPluginFolder(
  given: string,
  notices: string[],
  origin: { marketplace?: string; project?: boolean } = {},
): PluginFolder | undefined {
  let dir: string;
  try {
    dir = realpathSync(given);
  } catch {
    notices.push(`plugin folder ${given} not found; skipped`);
    return undefined;
  }
  let manifest: Record<string, unknown> = {};
  const read = readBoundedFile(join(dir, PLUGIN_MANIFEST), { maxBytes: 256 * 1024, root: dir });
  if (read.ok) {
    try {
      const parsed: unknown = JSON.parse(read.text);
      if (isRecord(parsed)) manifest = parsed;
    } catch {
      notices.push(`plugin ${dir}: ${PLUGIN_MANIFEST} is not valid JSON; skipped`);
      return undefined;
    }
  }
  const name = typeof manifest.name === 'string' ? manifest.name.trim() : basename(dir);
  if (!PLUGIN_NAME.test(name)) {
    notices.push(`plugin ${dir}: its name ${JSON.stringify(name)} must be letters, digits, - _ .; skipped`);
    return undefined;
  }
  // `commands` may also list skill folders (Claude Code's): those load as skills.
  const listed = replacing(dir, manifest, 'commands', 'commands', notices);
  const skillFolders = listed.filter((path) => existsSync(join(path, 'SKILL.md')));
  const skills = [...(pathsOf(dir, manifest.skills, 'skills', notices) ?? []), ...skillFolders];
  return {
    name,
    dir,
    id: `${name}@${origin.marketplace ?? 'inline'}`,
    ...(typeof manifest.version === 'string' ? { version: manifest.version } : {}),
    project: origin.project === true,
    commands: listed.filter((path) => !skillFolders.includes(path)),
    agents: replacing(dir, manifest, 'agents', 'agents', notices),
    skills: [join(dir, 'skills'), ...skills.filter((path) => path !== join(dir, 'skills'))],
    outputStyles: replacing(dir, manifest, 'outputStyles', 'output-styles', notices),
    hooks: configParts(dir, manifest, 'hooks', join('hooks', 'hooks.json'), notices),
    mcpServers: configParts(dir, manifest, 'mcpServers', '.mcp.json', notices),
  };
}

/** The usable plugin folders of `--plugin-dir`, in the order given; one notice per folder that is not one. */
export function readPluginFolders(dirs: readonly string[], notices: string[]): PluginFolder[] {
  return dirs.flatMap((dir) => readPluginFolder(dir, notices) ?? []);
}

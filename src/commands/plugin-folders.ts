/**
 * Claude Code plugin folders given with `--plugin-dir` (issue 40): `.claude-plugin/plugin.json` names the plugin;
 * its `commands/*.md` become `/<plugin>:<command>` and its `skills/<name>/SKILL.md` the skill `<plugin>:<name>`,
 * as Claude Code namespaces them. A plugin's hooks and MCP servers are not loaded (they would run commands without
 * the trust and approval a project's get): their presence is named once. Nothing is read when no folder is given.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';

export interface PluginFolder {
  name: string;
  /** The folder, resolved (its `commands/` and `skills/` are read from here). */
  dir: string;
}

const MANIFEST = join('.claude-plugin', 'plugin.json');
const PLUGIN_NAME = /^[A-Za-z0-9][\w.-]*$/;

/** The usable plugin folders, in the order given; one notice per folder that is not one or brings what mca skips. */
export function readPluginFolders(dirs: readonly string[], notices: string[]): PluginFolder[] {
  const plugins: PluginFolder[] = [];
  for (const given of dirs) {
    let dir: string;
    try {
      dir = realpathSync(given);
    } catch {
      notices.push(`plugin folder ${given} not found; skipped`);
      continue;
    }
    let manifest: Record<string, unknown> = {};
    const read = readBoundedFile(join(dir, MANIFEST), { maxBytes: 256 * 1024, root: dir });
    if (read.ok) {
      try {
        const parsed: unknown = JSON.parse(read.text);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
          manifest = parsed as Record<string, unknown>;
        }
      } catch {
        notices.push(`plugin ${dir}: ${MANIFEST} is not valid JSON; skipped`);
        continue;
      }
    }
    const name = typeof manifest.name === 'string' ? manifest.name.trim() : basename(dir);
    if (!PLUGIN_NAME.test(name)) {
      notices.push(`plugin ${dir}: its name ${JSON.stringify(name)} must be letters, digits, - _ .; skipped`);
      continue;
    }
    const skipped = [
      ...(manifest.hooks !== undefined || existsSync(join(dir, 'hooks', 'hooks.json')) ? ['hooks'] : []),
      ...(manifest.mcpServers !== undefined || existsSync(join(dir, '.mcp.json')) ? ['MCP servers'] : []),
      ...(manifest.agents !== undefined || existsSync(join(dir, 'agents')) ? ['agents'] : []),
    ];
    if (skipped.length > 0) {
      notices.push(
        `plugin ${name}: its ${skipped.join(', ')} are not loaded (mca loads a plugin's commands and skills)`,
      );
    }
    plugins.push({ name, dir });
  }
  return plugins;
}

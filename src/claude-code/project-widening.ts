/**
 * The trust question's items from a project's settings files: everything besides allow rules and hooks that a
 * "yes" switches on. Directories added for the file tools (a repository-shipped `.claude/settings.local.json`
 * counts: it is read once the project is trusted), `disableAllHooks` (which turns the user's own guard hooks off
 * too), the project approving its own MCP servers, and every `env` variable (marked when it loads code, redirects
 * mca or expands a secret). All of them are dangerous: never counted behind a cut.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describeVariable, type TrustItem } from '../permissions/trust-items.js';
import { LOCAL_SETTINGS, PROJECT_SETTINGS, readObject } from '../claude-code/settings.js';

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

export function projectSettingsItems(projectRoot: string): TrustItem[] {
  let root = projectRoot;
  try {
    root = realpathSync(projectRoot);
  } catch {
    return [];
  }
  const items: TrustItem[] = [];
  for (const relative of PROJECT_SETTINGS) {
    const settings = readObject(join(root, relative), root);
    if (!settings) continue;
    const permissions = settings.permissions;
    const directories =
      permissions !== null && typeof permissions === 'object' && LOCAL_SETTINGS.has(relative)
        ? strings((permissions as Record<string, unknown>).additionalDirectories)
        : [];
    for (const dir of directories) {
      if (dir.trim() === '') continue;
      items.push({
        group: 'widening',
        text: `adds the directory ${dir} to what the file tools read and edit (${relative})`,
        danger: true,
      });
    }
    if (settings.disableAllHooks === true) {
      items.push({
        group: 'widening',
        text: `turns every hook off, your own included (disableAllHooks in ${relative})`,
        danger: true,
      });
    }
    if (settings.enableAllProjectMcpServers === true) {
      items.push({ group: 'widening', text: `approves all of its .mcp.json servers (${relative})`, danger: true });
    }
    const approved = strings(settings.enabledMcpjsonServers);
    if (approved.length > 0) {
      items.push({
        group: 'widening',
        text: `approves its .mcp.json server(s) ${approved.join(', ')} (${relative})`,
        danger: true,
      });
    }
    const env = settings.env;
    if (env !== null && typeof env === 'object' && !Array.isArray(env)) {
      for (const [name, value] of Object.entries(env as Record<string, unknown>)) {
        if (typeof value !== 'string') continue;
        const described = describeVariable(name, value, root);
        items.push({ group: 'env', text: `sets ${described.text} (${relative})`, danger: true });
      }
    }
  }
  return items;
}

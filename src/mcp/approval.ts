/**
 * Whether a project's `.mcp.json` server may start, with Claude Code's keys: `enabledMcpjsonServers` (names
 * approved), `disabledMcpjsonServers` (names refused; wins over the other two), `enableAllProjectMcpServers`
 * (approve every server of `.mcp.json`). They are read from the settings files (user files always; the project's
 * own only once the project is trusted) and from this project's entry in `~/.claude.json` and `$MCA_HOME/mcp.json`.
 * A project server starts only when the project is trusted AND the server is approved: an untrusted project never
 * starts a process through MCP, whatever its files say. Servers from the user's own scopes and flags always start.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_SETTINGS_FILES } from '../permissions/settings-files.js';
import { projectEntry, readJsonObject, userConfigFiles } from './config-sources.js';
import type { ServerConfig } from './server-config.js';

export type ServerGate = 'start' | 'untrusted' | 'pending' | 'disabled';

export interface ApprovalSources {
  projectRoot: string;
  mcaHome: string;
  home?: string;
  trusted: boolean;
}

export interface ProjectApprovals {
  enabled: Set<string>;
  disabled: Set<string>;
  enableAll: boolean;
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

export function readApprovals(sources: ApprovalSources, notices: string[] = []): ProjectApprovals {
  const home = sources.home ?? homedir();
  const approvals: ProjectApprovals = { enabled: new Set(), disabled: new Set(), enableAll: false };
  const take = (object: Record<string, unknown> | undefined): void => {
    if (!object) return;
    for (const name of names(object.enabledMcpjsonServers)) approvals.enabled.add(name);
    for (const name of names(object.disabledMcpjsonServers)) approvals.disabled.add(name);
    if (object.enableAllProjectMcpServers === true) approvals.enableAll = true;
  };
  take(readJsonObject(join(sources.mcaHome, 'settings.json'), notices));
  take(readJsonObject(join(home, '.claude', 'settings.json'), notices));
  for (const file of userConfigFiles(sources.mcaHome, home)) {
    take(projectEntry(readJsonObject(file, notices), sources.projectRoot));
  }
  if (sources.trusted) {
    for (const file of PROJECT_SETTINGS_FILES) {
      take(readJsonObject(join(sources.projectRoot, file), notices, sources.projectRoot));
    }
  }
  return approvals;
}

export function gateOf(server: ServerConfig, trusted: boolean, approvals: ProjectApprovals): ServerGate {
  if (server.scope !== 'project') return 'start';
  if (!trusted) return 'untrusted';
  if (approvals.disabled.has(server.name)) return 'disabled';
  if (approvals.enableAll || approvals.enabled.has(server.name)) return 'start';
  return 'pending';
}

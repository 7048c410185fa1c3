/**
 * Records the project servers a person approved when trusting the project (the trust question listed each one's
 * command line): `projects[<root>].enabledMcpjsonServers` in `$MCA_HOME/mcp.json`, the same key Claude Code keeps
 * in `~/.claude.json`. Written atomically with mode 0600; a failure is returned as a line (the approval still holds
 * for this session).
 */
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCA_MCP_FILE, readJsonObject } from './config-sources.js';

export function recordProjectApproval(
  mcaHome: string,
  projectRoot: string,
  names: readonly string[],
): string | undefined {
  return recordMcpChoice(mcaHome, projectRoot, { approve: names });
}

/** What the MCP approval question recorded: servers approved, servers skipped (disabled), or "all, from now on". */
export interface McpChoice {
  approve?: readonly string[];
  disable?: readonly string[];
  all?: boolean;
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function recordMcpChoice(mcaHome: string, projectRoot: string, choice: McpChoice): string | undefined {
  const file = join(mcaHome, MCA_MCP_FILE);
  const notices: string[] = [];
  const config = readJsonObject(file, notices) ?? {};
  if (notices.length > 0) return `${notices[0]}; the MCP approval holds for this session only`;
  const projects = (typeof config.projects === 'object' && config.projects !== null ? config.projects : {}) as Record<
    string,
    Record<string, unknown>
  >;
  const entry = projects[projectRoot] ?? {};
  const updated: Record<string, unknown> = {
    ...entry,
    enabledMcpjsonServers: [...new Set([...listOf(entry.enabledMcpjsonServers), ...(choice.approve ?? [])])],
  };
  if (choice.disable && choice.disable.length > 0) {
    updated.disabledMcpjsonServers = [...new Set([...listOf(entry.disabledMcpjsonServers), ...choice.disable])];
  }
  if (choice.all === true) updated.enableAllProjectMcpServers = true;
  const next = { ...config, projects: { ...projects, [projectRoot]: updated } };
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(mcaHome, { recursive: true, mode: 0o700 });
    writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  } catch (error) {
    return `cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}); the MCP approval holds for this session only`;
  }
  return undefined;
}

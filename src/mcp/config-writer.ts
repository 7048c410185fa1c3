/**
 * What `mca mcp add|add-json|remove` change: the user scope (`mcpServers` in `$MCA_HOME/mcp.json`), the local scope
 * (`projects[<project root>].mcpServers` in the same file) and the project scope (`.mcp.json`). mca never writes
 * Claude Code's `~/.claude.json` (it reads it). Files are rewritten atomically, `$MCA_HOME/mcp.json` with mode 0600
 * (it may hold tokens in `env` or `headers`); other keys of the files are kept.
 */
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { McaError } from '../errors/mca-error.js';
import { MCA_MCP_FILE, PROJECT_MCP_FILE, projectEntry, readJsonObject } from './config-sources.js';

export type WritableScope = 'local' | 'user' | 'project';
export const WRITABLE_SCOPES: readonly WritableScope[] = ['local', 'project', 'user'];

export class McpConfigWriteError extends McaError {
  readonly code = 'MCP_CONFIG_UNWRITABLE' as const;
}

type JsonObject = Record<string, unknown>;

export interface ScopeFiles {
  mcaHome: string;
  projectRoot: string;
}

export function scopeFile(scope: WritableScope, files: ScopeFiles): string {
  return scope === 'project' ? join(files.projectRoot, PROJECT_MCP_FILE) : join(files.mcaHome, MCA_MCP_FILE);
}

function read(file: string, root?: string): JsonObject {
  const notices: string[] = [];
  const object = readJsonObject(file, notices, root);
  if (notices.length > 0) throw new McpConfigWriteError(`${notices[0]}; nothing was changed`);
  return object ?? {};
}

function asObject(value: unknown): JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
}

/** The scope's `mcpServers` object, read from its file. */
export function scopeServers(scope: WritableScope, files: ScopeFiles): JsonObject {
  const file = scopeFile(scope, files);
  const config = read(file, scope === 'project' ? files.projectRoot : undefined);
  if (scope === 'local') return asObject(projectEntry(config, files.projectRoot)?.mcpServers);
  return asObject(config.mcpServers);
}

/** Replaces the scope's `mcpServers` with `servers`; returns the file written. */
export function writeScopeServers(scope: WritableScope, files: ScopeFiles, servers: JsonObject): string {
  const file = scopeFile(scope, files);
  const config = read(file, scope === 'project' ? files.projectRoot : undefined);
  let next: JsonObject;
  if (scope === 'local') {
    const projects = asObject(config.projects);
    const entry = asObject(projects[files.projectRoot]);
    next = { ...config, projects: { ...projects, [files.projectRoot]: { ...entry, mcpServers: servers } } };
  } else {
    next = { ...config, mcpServers: servers };
  }
  const temp = `${file}.${process.pid}.tmp`;
  const mode = scope === 'project' ? 0o644 : 0o600;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { mode });
    chmodSync(temp, mode);
    renameSync(temp, file);
  } catch (error) {
    throw new McpConfigWriteError(`cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return file;
}

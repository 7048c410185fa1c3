/**
 * Every place a Claude Code user configures MCP servers, read the way Claude Code reads them:
 * - user scope: `mcpServers` in `~/.claude.json` and in `$MCA_HOME/mcp.json` (mca's own file, same shape; it wins
 *   over `~/.claude.json` for a name in both);
 * - local scope: `projects[<project root>].mcpServers` in the same two files;
 * - project scope: `.mcp.json` at the project root (trust and approval decide whether each starts: approval.ts);
 * - `--mcp-config <file or inline JSON>` (several): `{"mcpServers": {...}}`; with `--strict-mcp-config` only these.
 * A name in several scopes: flag > local > project > user. A file or entry that cannot be used is one notice naming
 * the file and the server, never a throw.
 */
import { sessionEnvironment } from '../config/child-environment.js';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { parseServerConfig, type ServerConfig, type ServerScope } from './server-config.js';

/** `~/.claude.json` also holds Claude Code's history; it may be large, but not unbounded. */
const MAX_CONFIG_BYTES = 32 * 1024 * 1024;
export const PROJECT_MCP_FILE = '.mcp.json';
export const MCA_MCP_FILE = 'mcp.json';

export interface McpConfigSources {
  projectRoot: string;
  mcaHome: string;
  home?: string;
  /** `--mcp-config` values as given: a path (relative to `cwd`) or JSON text. */
  mcpConfigs?: readonly string[];
  strict?: boolean;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface LoadedMcpConfig {
  /** One entry per server name, the winning scope's. */
  servers: ServerConfig[];
  notices: string[];
}

type JsonObject = Record<string, unknown>;

function isRecord(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A JSON object from a file; undefined when missing; a notice when broken. */
export function readJsonObject(file: string, notices: string[], root?: string): JsonObject | undefined {
  const read = readBoundedFile(file, { maxBytes: MAX_CONFIG_BYTES, ...(root ? { root } : {}) });
  if (!read.ok) {
    if (read.reason !== 'missing') notices.push(`MCP: ignored ${read.message}`);
    return undefined;
  }
  return parseObject(read.text, file, notices);
}

function parseObject(text: string, where: string, notices: string[]): JsonObject | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) return parsed;
    notices.push(`MCP: ignored ${where}: not a JSON object`);
  } catch (error) {
    notices.push(`MCP: ignored ${where}: not valid JSON (${(error as Error).message})`);
  }
  return undefined;
}

/** The servers of one `mcpServers` object; each bad entry is one notice naming the file and the server. */
function serversOf(
  value: unknown,
  where: { scope: ServerScope; source: string },
  env: NodeJS.ProcessEnv,
  notices: string[],
): ServerConfig[] {
  if (value === undefined) return [];
  if (!isRecord(value)) {
    notices.push(`MCP: ignored "mcpServers" in ${where.source}: it must be an object`);
    return [];
  }
  const servers: ServerConfig[] = [];
  for (const [name, raw] of Object.entries(value)) {
    const parsed = parseServerConfig(name, raw, where, env);
    if (parsed.ok) servers.push(parsed.config);
    else notices.push(`MCP: server "${name}" in ${where.source} not used: ${parsed.message}`);
  }
  return servers;
}

/** A user config file's entry for this project (`projects[<root>]`). */
export function projectEntry(config: JsonObject | undefined, projectRoot: string): JsonObject | undefined {
  const projects = config?.projects;
  if (!isRecord(projects)) return undefined;
  const entry = projects[projectRoot];
  return isRecord(entry) ? entry : undefined;
}

/** `~/.claude.json` and `$MCA_HOME/mcp.json`, in that order (the later wins). */
export function userConfigFiles(mcaHome: string, home: string): string[] {
  return [join(home, '.claude.json'), join(mcaHome, MCA_MCP_FILE)];
}

function flagServers(sources: McpConfigSources, env: NodeJS.ProcessEnv, notices: string[]): ServerConfig[] {
  const servers: ServerConfig[] = [];
  for (const value of sources.mcpConfigs ?? []) {
    const inline = value.trimStart().startsWith('{');
    const source = inline ? '--mcp-config (inline JSON)' : resolve(sources.cwd ?? process.cwd(), value);
    const object = inline ? parseObject(value, source, notices) : readJsonObject(source, notices);
    if (!inline && object === undefined && !notices.some((line) => line.includes(source))) {
      notices.push(`MCP: --mcp-config ${source} does not exist`);
    }
    if (object === undefined) continue;
    if (object.mcpServers === undefined) {
      notices.push(`MCP: ${source} has no "mcpServers" object`);
      continue;
    }
    servers.push(...serversOf(object.mcpServers, { scope: 'flag', source }, env, notices));
  }
  return servers;
}

const PRECEDENCE: readonly ServerScope[] = ['user', 'project', 'local', 'flag'];

export function loadMcpConfig(sources: McpConfigSources): LoadedMcpConfig {
  const notices: string[] = [];
  const env = sources.env ?? sessionEnvironment();
  const flagged = flagServers(sources, env, notices);
  if (sources.strict) return { servers: dedupe(flagged), notices };
  const home = sources.home ?? homedir();
  const user: ServerConfig[] = [];
  const local: ServerConfig[] = [];
  for (const file of userConfigFiles(sources.mcaHome, home)) {
    const config = readJsonObject(file, notices);
    user.push(...serversOf(config?.mcpServers, { scope: 'user', source: file }, env, notices));
    const entry = projectEntry(config, sources.projectRoot);
    local.push(...serversOf(entry?.mcpServers, { scope: 'local', source: file }, env, notices));
  }
  const projectFile = join(sources.projectRoot, PROJECT_MCP_FILE);
  const projectConfig = readJsonObject(projectFile, notices, sources.projectRoot);
  const project = serversOf(projectConfig?.mcpServers, { scope: 'project', source: projectFile }, env, notices);
  const all = [...user, ...project, ...local, ...flagged];
  all.sort((a, b) => PRECEDENCE.indexOf(a.scope) - PRECEDENCE.indexOf(b.scope));
  return { servers: dedupe(all), notices };
}

/** The last entry per name wins (callers order by precedence); the order of first appearance is kept. */
function dedupe(servers: readonly ServerConfig[]): ServerConfig[] {
  const byName = new Map<string, ServerConfig>();
  for (const server of servers) {
    byName.delete(server.name);
    byName.set(server.name, server);
  }
  return [...byName.values()];
}

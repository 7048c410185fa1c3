/**
 * One MCP server entry as Claude Code users write it (`.mcp.json`, `~/.claude.json`, `--mcp-config`):
 * `{type?: "stdio", command, args?, env?}`, `{type: "http", url, headers?}`, `{type: "sse", url, headers?}`, each
 * with an optional `timeout` (ms, per tool call); remote ones with Claude Code's optional `oauth` (sign-in settings). `parseServerConfig` checks the shape and expands variables; a bad
 * entry is one message, never a throw.
 */
import { sessionEnvironment } from '../config/child-environment.js';
import { expandVars } from './expand-vars.js';

/** Where a server was configured; decides precedence (local > project > user) and trust (project needs both). */
export type ServerScope = 'flag' | 'local' | 'project' | 'user';

interface ServerBase {
  readonly name: string;
  readonly scope: ServerScope;
  /** The file it came from (or `--mcp-config`), for messages. */
  readonly source: string;
  /** Per-call timeout in ms, overriding MCP_TOOL_TIMEOUT. */
  readonly timeoutMs?: number;
}

export interface StdioServerConfig extends ServerBase {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** Claude Code's `oauth` entry of a remote server: a pre-registered client, a fixed callback port, scopes. */
export interface OAuthSettings {
  readonly clientId?: string;
  readonly callbackPort?: number;
  /** Space-separated scopes to ask for (instead of the ones the server names). */
  readonly scopes?: string;
}

export interface RemoteServerConfig extends ServerBase {
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly oauth?: OAuthSettings;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

export type ParsedServer = { ok: true; config: ServerConfig } | { ok: false; message: string };

/** Server names are map keys a user chose; the tool names built from them are sanitised separately. */
const MAX_NAME_LENGTH = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function stringMap(value: unknown, field: string): Record<string, string> | string {
  if (value === undefined) return {};
  if (!isRecord(value)) return `"${field}" must be an object of strings`;
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') return `"${field}.${key}" must be a string`;
    out[key] = entry;
  }
  return out;
}

/** Expands every string; collects the variables that had no value. */
class Expander {
  readonly missing = new Set<string>();
  constructor(private readonly env: NodeJS.ProcessEnv) {}
  one(text: string): string {
    const { value, missing } = expandVars(text, this.env);
    for (const name of missing) this.missing.add(name);
    return value;
  }
  map(values: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, this.one(value)]));
  }
}

function timeoutOf(raw: Record<string, unknown>): number | undefined | string {
  if (raw.timeout === undefined) return undefined;
  if (typeof raw.timeout !== 'number' || !Number.isFinite(raw.timeout) || raw.timeout <= 0) {
    return '"timeout" must be a positive number of milliseconds';
  }
  return raw.timeout;
}

export function parseServerConfig(
  name: string,
  raw: unknown,
  where: { scope: ServerScope; source: string },
  env: NodeJS.ProcessEnv = sessionEnvironment(),
): ParsedServer {
  const fail = (why: string): ParsedServer => ({ ok: false, message: why });
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return fail('the server name is empty or too long');
  if (!isRecord(raw)) return fail('the entry must be an object');
  const type = raw.type ?? (raw.url !== undefined && raw.command === undefined ? 'http' : 'stdio');
  const timeout = timeoutOf(raw);
  if (typeof timeout === 'string') return fail(timeout);
  const base = { name, ...where, ...(timeout !== undefined ? { timeoutMs: timeout } : {}) };
  const expander = new Expander(env);
  let config: ServerConfig;
  if (type === 'stdio') {
    if (typeof raw.command !== 'string' || raw.command.trim() === '')
      return fail('"command" must be a non-empty string');
    const args = raw.args ?? [];
    if (!Array.isArray(args) || !args.every((arg): arg is string => typeof arg === 'string')) {
      return fail('"args" must be a list of strings');
    }
    const envMap = stringMap(raw.env, 'env');
    if (typeof envMap === 'string') return fail(envMap);
    config = {
      ...base,
      type: 'stdio',
      command: expander.one(raw.command),
      args: args.map((arg) => expander.one(arg)),
      env: expander.map(envMap),
    };
  } else if (type === 'http' || type === 'sse' || type === 'streamable-http') {
    if (typeof raw.url !== 'string') return fail('"url" must be a string');
    const headers = stringMap(raw.headers, 'headers');
    if (typeof headers === 'string') return fail(headers);
    const url = expander.one(raw.url);
    const oauth = oauthOf(raw.oauth);
    if (typeof oauth === 'string') return fail(oauth);
    config = {
      ...base,
      type: type === 'sse' ? 'sse' : 'http',
      url,
      headers: expander.map(headers),
      ...(oauth ? { oauth } : {}),
    };
    if (expander.missing.size === 0 && !isHttpUrl(url)) return fail(`"url" is not an http(s) URL: ${url}`);
  } else {
    return fail(`unknown "type" ${JSON.stringify(type)} (expected stdio, http or sse)`);
  }
  if (expander.missing.size > 0) {
    return fail(`environment variable(s) ${[...expander.missing].join(', ')} not set and no default given`);
  }
  return { ok: true, config };
}

/** `oauth: {clientId?, callbackPort?, scopes?}`; other keys Claude Code may add are ignored. */
function oauthOf(value: unknown): OAuthSettings | undefined | string {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return '"oauth" must be an object';
  const { clientId, callbackPort, scopes } = value;
  if (clientId !== undefined && (typeof clientId !== 'string' || clientId.trim() === '' || clientId.length > 500)) {
    return '"oauth.clientId" must be a non-empty string';
  }
  if (
    callbackPort !== undefined &&
    (typeof callbackPort !== 'number' || !Number.isInteger(callbackPort) || callbackPort < 1 || callbackPort > 65535)
  ) {
    return '"oauth.callbackPort" must be a port number (1-65535)';
  }
  if (scopes !== undefined && (typeof scopes !== 'string' || scopes.trim() === '' || scopes.length > 2000)) {
    return '"oauth.scopes" must be a non-empty string of space-separated scopes';
  }
  return {
    ...(typeof clientId === 'string' ? { clientId } : {}),
    ...(typeof callbackPort === 'number' ? { callbackPort } : {}),
    ...(typeof scopes === 'string' ? { scopes: scopes.trim() } : {}),
  };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** How a server is started, as one line: the trust question and `/mcp` show it. */
export function describeServer(config: ServerConfig): string {
  if (config.type === 'stdio') return [config.command, ...config.args].map(quoteArg).join(' ');
  return `${config.type} ${config.url}`;
}

function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

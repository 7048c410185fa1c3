/**
 * `mca mcp list|get|add|add-json|remove|login|logout`, as Claude Code's `claude mcp`: list every configured server
 * (each one that may start is connected once to report its status and tool count), show one, add or remove servers
 * in the local (default), user or project scope (config-writer.ts says which file each is), and sign in to or out
 * of a remote server (mcp-login-command.ts).
 */
import { resolveMcaHome } from '../../config/config.js';
import { gateOf, readApprovals } from '../../mcp/approval.js';
import { loadMcpConfig } from '../../mcp/config-sources.js';
import { recordProjectApproval } from '../../mcp/approval-store.js';
import { scopeServers, WRITABLE_SCOPES, writeScopeServers, type WritableScope } from '../../mcp/config-writer.js';
import { describeServer, parseServerConfig, type ServerConfig } from '../../mcp/server-config.js';
import { isSignedIn } from '../../mcp/oauth/auth-store.js';
import { trustChoice } from '../../permissions/trust-store.js';
import { mcpLimits } from '../../runtime/mcp-servers.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { resolveProjectRoot } from '../bootstrap.js';
import type { OptionSpec } from '../arg-grammar.js';
import { CliError, EXIT_OK, EXIT_USAGE, printError } from '../exit-codes.js';
import { runCommandGroup, type SubcommandSpec } from '../subcommands.js';
import { login, logout } from './mcp-login-command.js';

const out = (line: string): void => void process.stdout.write(`${neutralizeControlSequences(line)}\n`);

interface Context {
  projectRoot: string;
  mcaHome: string;
}

function context(): Context {
  try {
    return { projectRoot: resolveProjectRoot(undefined), mcaHome: resolveMcaHome() };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError((error as Error).message);
  }
}

function configured(ctx: Context): { servers: ServerConfig[]; notices: string[] } {
  return loadMcpConfig({ projectRoot: ctx.projectRoot, mcaHome: ctx.mcaHome });
}

async function list(): Promise<number> {
  const ctx = context();
  const { servers, notices } = configured(ctx);
  for (const notice of notices) process.stderr.write(`mca: ${notice}\n`);
  if (servers.length === 0) {
    out('No MCP servers configured. Add one with `mca mcp add <name> -- <command> [args...]`.');
    return EXIT_OK;
  }
  const trusted = trustChoice(ctx.mcaHome, ctx.projectRoot) === 'trusted';
  const approvals = readApprovals({ projectRoot: ctx.projectRoot, mcaHome: ctx.mcaHome, trusted });
  const entries = servers.map((config) => ({ config, gate: gateOf(config, trusted, approvals) }));
  const { McpManager } = await import('../../mcp/mcp-manager.js');
  const tools: string[] = [];
  const manager = new McpManager({
    servers: entries,
    projectRoot: ctx.projectRoot,
    mcaHome: ctx.mcaHome,
    registry: {
      register: (tool) => void tools.push(tool.name),
      unregister: () => true,
      names: () => tools,
    },
    limits: mcpLimits(),
    notice: () => undefined,
    expect: () => undefined,
  });
  await manager.start();
  for (const status of manager.list()) {
    const state =
      status.state === 'connected'
        ? `✓ connected, ${status.tools.length} tool(s)`
        : `${status.state === 'failed' ? '✗' : status.state === 'needs-auth' ? '!' : '·'} ${status.state}${status.detail ? `: ${status.detail}` : ''}`;
    out(`${status.name} (${status.scope}): ${status.launch} - ${state}`);
  }
  await manager.close();
  return EXIT_OK;
}

function get(name: string): number {
  const ctx = context();
  const server = configured(ctx).servers.find((entry) => entry.name === name);
  if (!server) throw new CliError(`no MCP server "${name}" is configured here (mca mcp list shows them)`);
  out(`${server.name}:`);
  out(`  scope: ${server.scope} (${server.source})`);
  out(`  type: ${server.type}`);
  if (server.type === 'stdio') {
    out(`  command: ${describeServer(server)}`);
    const names = Object.keys(server.env);
    if (names.length > 0) out(`  env: ${names.join(', ')} (values not shown)`);
  } else {
    out(`  url: ${server.url}`);
    const names = Object.keys(server.headers);
    if (names.length > 0) out(`  headers: ${names.join(', ')} (values not shown)`);
    if (server.oauth?.clientId) out(`  oauth client: ${server.oauth.clientId}`);
    if (server.oauth?.callbackPort) out(`  oauth callback port: ${server.oauth.callbackPort}`);
    if (server.oauth?.scopes) out(`  oauth scopes: ${server.oauth.scopes}`);
    out(`  signed in: ${isSignedIn(server, ctx.mcaHome) ? 'yes' : 'no (mca mcp login ' + name + ')'}`);
  }
  if (server.timeoutMs !== undefined) out(`  timeout: ${server.timeoutMs} ms`);
  return EXIT_OK;
}

function pairs(values: readonly string[], separator: RegExp, what: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const value of values) {
    const match = separator.exec(value);
    if (!match || match.index === 0)
      throw new CliError(`${what} "${value}" is not NAME${what === '--env' ? '=' : ': '}value`);
    result[value.slice(0, match.index).trim()] = value.slice(match.index + match[0].length);
  }
  return result;
}

function save(name: string, scope: WritableScope, entry: Record<string, unknown>): number {
  const ctx = context();
  const parsed = parseServerConfig(
    name,
    entry,
    { scope: scope === 'local' ? 'local' : scope, source: 'mca mcp' },
    {
      ...process.env,
    },
  );
  // A `${VAR}` that is unset now may be set when mca runs: only the shape must be right.
  if (!parsed.ok && !parsed.message.startsWith('environment variable')) {
    throw new CliError(`MCP server "${name}" not added: ${parsed.message}`, EXIT_USAGE);
  }
  const servers = scopeServers(scope, ctx);
  if (name in servers)
    throw new CliError(`MCP server "${name}" already exists in the ${scope} scope (mca mcp remove ${name} first)`);
  const file = writeScopeServers(scope, ctx, { ...servers, [name]: entry });
  out(`Added MCP server "${name}" to the ${scope} scope (${file}).`);
  // The user added it by name: that act approves it (as Claude Code does); the project's trust still applies.
  if (scope === 'project') {
    const failure = recordProjectApproval(ctx.mcaHome, ctx.projectRoot, [name]);
    if (failure) printError(failure);
  }
  return EXIT_OK;
}

function remove(name: string, scope: WritableScope | undefined): number {
  const ctx = context();
  const holding = (scope ? [scope] : WRITABLE_SCOPES).filter((candidate) => name in scopeServers(candidate, ctx));
  if (holding.length === 0)
    throw new CliError(`no MCP server "${name}" in the ${scope ?? 'local, project or user'} scope`);
  if (holding.length > 1) {
    throw new CliError(`MCP server "${name}" is in the ${holding.join(' and ')} scopes: say which with -s`);
  }
  const [from] = holding as [WritableScope];
  const { [name]: _removed, ...rest } = scopeServers(from, ctx);
  const file = writeScopeServers(from, ctx, rest);
  out(`Removed MCP server "${name}" from the ${from} scope (${file}).`);
  return EXIT_OK;
}

function collect(value: string, previous: unknown): string[] {
  return [...(previous as string[]), value];
}

const scopeOption = (withDefault: boolean): OptionSpec => ({
  flags: '-s, --scope <scope>',
  description: 'local (this project, yours), user (every project) or project (.mcp.json)',
  choices: WRITABLE_SCOPES,
  ...(withDefault ? { default: 'local' } : {}),
});

interface AddOptions {
  scope: WritableScope;
  transport: string;
  env: string[];
  header: string[];
  clientId?: string;
  callbackPort?: string;
}

function addEntry(target: string, args: string[], options: AddOptions): Record<string, unknown> {
  const oauth = {
    ...(options.clientId ? { clientId: options.clientId } : {}),
    ...(options.callbackPort ? { callbackPort: Number(options.callbackPort) } : {}),
  };
  return options.transport === 'stdio'
    ? {
        type: 'stdio',
        command: target,
        args,
        ...(options.env.length > 0 ? { env: pairs(options.env, /=/, '--env') } : {}),
      }
    : {
        type: options.transport,
        url: target,
        ...(options.header.length > 0 ? { headers: pairs(options.header, /:\s*/, '--header') } : {}),
        ...(Object.keys(oauth).length > 0 ? { oauth } : {}),
      };
}

function parseServerJson(json: string): Record<string, unknown> {
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (error) {
    throw new CliError(`the server JSON is not valid JSON (${(error as Error).message})`, EXIT_USAGE);
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new CliError('the server JSON must be an object', EXIT_USAGE);
  }
  return entry as Record<string, unknown>;
}

function signIn(name: string, how: typeof login): () => Promise<number> | number {
  return () => {
    const ctx = context();
    return how({ mcaHome: ctx.mcaHome, servers: configured(ctx).servers }, name);
  };
}

function subcommands(result: { run?: () => number | Promise<number> }): SubcommandSpec[] {
  return [
    {
      name: 'list',
      arguments: [],
      description: 'list the configured servers and check each one',
      action: () => void (result.run = list),
    },
    {
      name: 'get',
      arguments: ['<name>'],
      description: 'show one server',
      action: ([name]) => void (result.run = () => get(name as string)),
    },
    {
      name: 'add',
      arguments: ['<name>', '<commandOrUrl>', '[args...]'],
      description: 'add a server: mca mcp add name -- command args…, or -t http name https://…',
      options: [
        scopeOption(true),
        {
          flags: '-t, --transport <type>',
          description: 'stdio, http or sse',
          choices: ['stdio', 'http', 'sse'],
          default: 'stdio',
        },
        {
          flags: '-e, --env <NAME=value>',
          description: 'an environment variable of a stdio server (repeatable)',
          parse: collect,
          default: [],
        },
        {
          flags: '-H, --header <header>',
          description: 'a header of an http or sse server, "Name: value" (repeatable)',
          parse: collect,
          default: [],
        },
        {
          flags: '--client-id <id>',
          description: 'a pre-registered OAuth client id (http/sse; its secret: MCP_CLIENT_SECRET at login)',
        },
        {
          flags: '--callback-port <port>',
          description: 'a fixed OAuth callback port (http://localhost:PORT/callback)',
        },
      ],
      action: ([name, target, args], values) => {
        const options = values as unknown as AddOptions;
        const entry = addEntry(target as string, args as string[], options);
        result.run = () => save(name as string, options.scope, entry);
      },
    },
    {
      name: 'add-json',
      arguments: ['<name>', '<json>'],
      description: 'add a server from its JSON, as it would stand in .mcp.json',
      options: [scopeOption(true)],
      action: ([name, json], values) => {
        const entry = parseServerJson(json as string);
        result.run = () => save(name as string, values['scope'] as WritableScope, entry);
      },
    },
    {
      name: 'login',
      arguments: ['<name>'],
      description: 'sign in to a remote (http or sse) server with your browser; tokens are kept under MCA_HOME',
      action: ([name]) => void (result.run = signIn(name as string, login)),
    },
    {
      name: 'logout',
      arguments: ['<name>'],
      description: "delete a remote server's stored sign-in",
      action: ([name]) => void (result.run = signIn(name as string, logout)),
    },
    {
      name: 'remove',
      arguments: ['<name>'],
      description: 'remove a server (from the one scope that has it, or from -s)',
      options: [scopeOption(false)],
      action: ([name], values) =>
        void (result.run = () => remove(name as string, values['scope'] as WritableScope | undefined)),
    },
  ];
}

export async function runMcpCommand(args: readonly string[]): Promise<number> {
  const result: { run?: () => number | Promise<number> } = {};
  const group = {
    name: 'mca mcp',
    description: 'Configure and check MCP servers',
    subcommands: subcommands(result),
    seeHelp: ' (see mca mcp --help)',
  };
  const code = runCommandGroup(group, args);
  if (code !== undefined || !result.run) return code ?? EXIT_OK;
  return await result.run();
}

/**
 * `mca mcp login <name>` and `mca mcp logout <name>`: sign in to a remote (http/sse) server with the browser and
 * a loopback callback (src/mcp/oauth/sign-in.ts), or delete its stored sign-in. The sign-in URL is printed (and
 * opened when a person is at a terminal, or through MCA_BROWSER_COMMAND); tokens are never printed.
 */
import type { ServerConfig } from '../../mcp/server-config.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { McaError } from '../../errors/mca-error.js';
import { CliError, EXIT_OK } from '../exit-codes.js';

const out = (line: string): void => void process.stdout.write(`${neutralizeControlSequences(line)}\n`);

export interface LoginContext {
  mcaHome: string;
  servers: readonly ServerConfig[];
}

function find(ctx: LoginContext, name: string): ServerConfig {
  const server = ctx.servers.find((entry) => entry.name === name);
  if (!server) throw new CliError(`no MCP server "${name}" is configured here (mca mcp list shows them)`);
  return server;
}

export async function login(ctx: LoginContext, name: string): Promise<number> {
  const server = find(ctx, name);
  const { signIn } = await import('../../mcp/oauth/sign-in.js');
  try {
    const result = await signIn(server, {
      mcaHome: ctx.mcaHome,
      print: out,
      interactiveTerminal: process.stdout.isTTY === true,
    });
    out(result.message);
    return EXIT_OK;
  } catch (error) {
    if (McaError.isInstance(error)) throw new CliError(`MCP sign-in to "${name}" failed: ${error.message}`);
    throw error;
  }
}

export async function logout(ctx: LoginContext, name: string): Promise<number> {
  const server = find(ctx, name);
  const { signOut } = await import('../../mcp/oauth/sign-in.js');
  try {
    out(
      signOut(server, ctx.mcaHome)
        ? `Signed out of "${name}": its stored tokens were deleted.`
        : `"${name}" had no stored sign-in.`,
    );
    return EXIT_OK;
  } catch (error) {
    if (McaError.isInstance(error)) throw new CliError(error.message);
    throw error;
  }
}

/**
 * server-everything from npm as a remote MCP server (streamable HTTP or legacy SSE) on a free loopback port, for
 * tests that put it behind the OAuth proxy (oauth-protected-mcp.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      if (pattern.test(seen)) resolve();
    });
    child.once('exit', () => reject(new Error(`server exited: ${seen}`)));
  });
}

/** Starts server-everything over `transport` and resolves once it listens; kill the child when done. */
export async function startEverythingRemote(
  transport: 'streamableHttp' | 'sse',
): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await waitForOutput(child, transport === 'sse' ? /running on port/i : /listening on port/i);
  return { child, port };
}

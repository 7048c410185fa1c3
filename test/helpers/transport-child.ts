/**
 * Runs the node:http transport in a child process that POSTs to `url` `requests` times with `headers` (printing each
 * body) and then simply returns: the child must exit by itself. It is killed after 20 s,
 * which a test's server, keeping idle connections for ten minutes, would hit if a pooled socket held the process open.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TRANSPORT = fileURLToPath(new URL('../../src/providers/http-transport.ts', import.meta.url));

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

export async function runTransportChild(
  url: URL,
  requests: number,
  env: NodeJS.ProcessEnv = {},
  headers: Record<string, string> = {},
): Promise<ChildRun> {
  const script = `
    const { NodeHttpTransport } = await import(${JSON.stringify(TRANSPORT)});
    const transport = new NodeHttpTransport(process.env);
    const url = new URL(${JSON.stringify(url.href)});
    for (let index = 0; index < ${requests}; index++) {
      const response = await transport.post({ url, headers: ${JSON.stringify(headers)}, body: '{}', signal: new AbortController().signal });
      process.stdout.write(await response.text());
    }
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  clearTimeout(killer);
  return { code, signal, output };
}

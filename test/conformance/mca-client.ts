/**
 * mca as the client of the official MCP conformance suite (`@modelcontextprotocol/conformance client --command`):
 * the suite starts a scenario server and runs this with its URL as the last argument and the scenario's name in
 * MCP_CONFORMANCE_SCENARIO. This starts the loopback fake model, scripted to call the scenario's tool, and runs the
 * built `mca -p` with the server given by `--mcp-config`; its exit code is mca's.
 *
 * An `auth/*` scenario is signed in to first, as a person would: the server is added to the user scope
 * (`mca mcp add-json -s user`, with `oauth.clientId` when the scenario hands out a pre-registered client in
 * MCP_CONFORMANCE_CONTEXT, whose secret goes in MCP_CLIENT_SECRET), then `mca mcp login` runs with
 * MCA_BROWSER_COMMAND set to test/helpers/headless-browser.mjs, which follows the authorization URL's redirects to
 * mca's loopback callback; then `mca -p` connects with the stored token. In `auth/scope-step-up` the tool asks for
 * a wider scope mid-session (403): the wrapper signs in again, as the hint says, and runs `mca -p` once more.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';

const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
const BIN = fileURLToPath(new URL('../../dist/cli/mca.cjs', import.meta.url));

const call = (name: string, input: unknown): FakeStep => ({ text: 'calling', calls: [{ name, input }] });
const SCRIPTS: Record<string, FakeStep[]> = {
  initialize: [{ text: 'ok' }],
  tools_call: [call('mcp__conf__add_numbers', { a: 2, b: 3 }), { text: 'done' }],
  'sse-retry': [call('mcp__conf__test_reconnection', {}), { text: 'done' }],
  // Its tool answers 403 insufficient_scope: mca reports it to the model as needing `mca mcp login` and keeps the
  // wider scope; the wrapper then signs in again (asking for it) and runs once more, as a person would.
  'auth/scope-step-up': [call('mcp__conf__test-tool', {}), { text: 'done' }],
};

const BROWSER = fileURLToPath(new URL('../helpers/headless-browser.mjs', import.meta.url));
const fake = await startFakeAnthropic(SCRIPTS[scenario] ?? [{ text: 'ok' }], { loop: true });
const home = mkdtempSync(join(tmpdir(), 'mca-conformance-'));
const env = {
  PATH: process.env.PATH,
  HOME: home,
  MCA_HOME: join(home, '.mca'),
  ANTHROPIC_API_KEY: 'sk-ant-conformance',
  ANTHROPIC_BASE_URL: fake.url,
};

/** The built mca with `args`; resolves to its exit code. Asynchronous: the fake model answers from this process. */
function mca(args: string[], extra: Record<string, string> = {}): Promise<number> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: home,
    env: { ...env, ...extra },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
}

async function run(): Promise<number> {
  if (!scenario.startsWith('auth/')) {
    const config = JSON.stringify({ mcpServers: { conf: { type: 'http', url } } });
    return mca(['-p', 'go', '--mcp-config', config, '--allowedTools', 'mcp__conf', '--cwd', home]);
  }
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
    client_id?: string;
    client_secret?: string;
  };
  const entry = { type: 'http', url, ...(context.client_id ? { oauth: { clientId: context.client_id } } : {}) };
  const added = await mca(['mcp', 'add-json', '-s', 'user', 'conf', JSON.stringify(entry)]);
  if (added !== 0) return added;
  const login = await mca(['mcp', 'login', 'conf'], {
    MCA_BROWSER_COMMAND: `${process.execPath} ${BROWSER}`,
    ...(context.client_secret ? { MCP_CLIENT_SECRET: context.client_secret } : {}),
  });
  if (login !== 0) return login;
  const run = await mca(['-p', 'go', '--allowedTools', 'mcp__conf', '--cwd', home]);
  if (run !== 0 || scenario !== 'auth/scope-step-up') return run;
  const again = await mca(['mcp', 'login', 'conf'], { MCA_BROWSER_COMMAND: `${process.execPath} ${BROWSER}` });
  if (again !== 0) return again;
  return mca(['-p', 'go', '--allowedTools', 'mcp__conf', '--cwd', home]);
}

const code = await run();
await fake.close();
process.exitCode = code;

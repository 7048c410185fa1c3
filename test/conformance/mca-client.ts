/**
 * mca as the client of the official MCP conformance suite (`@modelcontextprotocol/conformance client --command`):
 * the suite starts a scenario server and runs this with its URL as the last argument and the scenario's name in
 * MCP_CONFORMANCE_SCENARIO. This starts the loopback fake model, scripted to call the scenario's tool, and runs the
 * built `mca -p` with the server given by `--mcp-config`; its exit code is mca's.
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
};

const fake = await startFakeAnthropic(SCRIPTS[scenario] ?? [{ text: 'ok' }], { loop: true });
const home = mkdtempSync(join(tmpdir(), 'mca-conformance-'));
const config = JSON.stringify({ mcpServers: { conf: { type: 'http', url } } });
// Asynchronous: the fake model answers from this process while mca runs.
const child = spawn(
  process.execPath,
  [BIN, '-p', 'go', '--mcp-config', config, '--allowedTools', 'mcp__conf', '--cwd', home],
  {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      MCA_HOME: join(home, '.mca'),
      ANTHROPIC_API_KEY: 'sk-ant-conformance',
      ANTHROPIC_BASE_URL: fake.url,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
const code = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
await fake.close();
process.exitCode = code;

/**
 * The stream-json `system`/`init` line tells the setup as it is (issue 38 item "Init tells the truth"): each MCP
 * server with its outcome (connected, failed; not `pending` while it starts), the connected servers' `mcp__` tools
 * in `tools`, the skills, the custom commands and skills in `slash_commands`, the subagents. On the old tree the
 * servers were `pending`, `tools` had no `mcp__` name and `skills` and `slash_commands` were empty.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-init-truth-0123456789';
const MEMORY = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url),
);
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function setUp(home: string, root: string): string {
  mkdirSync(join(home, '.claude', 'skills', 'review'), { recursive: true });
  writeFileSync(
    join(home, '.claude', 'skills', 'review', 'SKILL.md'),
    '---\nname: review\ndescription: Reviews a change\n---\nRead the diff.\n',
  );
  mkdirSync(join(home, '.claude', 'commands'), { recursive: true });
  writeFileSync(join(home, '.claude', 'commands', 'hello.md'), '---\ndescription: Says hello\n---\nSay hello.\n');
  mkdirSync(join(home, '.claude', 'agents'), { recursive: true });
  writeFileSync(
    join(home, '.claude', 'agents', 'helper.md'),
    '---\nname: helper\ndescription: Helps\n---\nYou help.\n',
  );
  const config = {
    mcpServers: {
      memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(root, 'memory.json') } },
      broken: { command: 'mca-no-such-server-command' },
    },
  };
  const file = join(root, 'mcp.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe('system/init', () => {
  it('reports MCP servers with their outcome and tools, skills, commands and agents', async () => {
    const { root, home } = tempProject('mca-init-truth-');
    const mcpConfig = setUp(home, root);
    server = await startFakeAnthropic([{ text: 'ok' }]);
    const stdin = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`;
    const run = await runMca(
      ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--mcp-config', mcpConfig],
      { cwd: root, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: home }, stdin },
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const init = lines.find((line) => line.type === 'system' && line.subtype === 'init') as {
      mcp_servers: Array<{ name: string; status: string }>;
      tools: string[];
      skills: string[];
      slash_commands: string[];
      agents: string[];
      plugins: unknown[];
    };
    expect(init.mcp_servers).toEqual(
      expect.arrayContaining([
        { name: 'memory', status: 'connected', source: 'dynamic' },
        { name: 'broken', status: 'failed', source: 'dynamic' },
      ]),
    );
    expect(init.tools).toContain('mcp__memory__read_graph');
    expect(init.tools).toContain('Read');
    expect(init.skills).toContain('review');
    expect(init.slash_commands).toEqual(expect.arrayContaining(['hello', 'review']));
    expect(init.agents).toContain('helper');
    expect(init.plugins).toEqual([]);
    // The model was offered what init reports.
    const offered = (server.requests[0]?.body.tools as Array<{ name: string }> | undefined)?.map((tool) => tool.name);
    expect(offered ?? []).toContain('mcp__memory__read_graph');
  }, 60_000);
});

/**
 * MCP bench (issue 26). Round-robin over `runs` rounds after one warm-up, medians reported:
 * - time to first request: the built `mca -p` (dist/) from spawn until the fake API server has the first request's
 *   headers, with no MCP server configured and with three (server-everything, server-filesystem, server-memory over
 *   stdio, from --mcp-config), cold (no remembered tool lists: MCA_HOME/mcp-tools removed before the run, so the
 *   first request waits until the servers have connected and listed their tools) and remembered (the lists the
 *   previous run stored: the first request goes while the servers start);
 * - per-call overhead: in this process, `callTool` straight through the client library vs the same call through
 *   mca's tool registry (input check by ajv, the decision point, the result envelope), server-everything's `echo`,
 *   200 calls each after 20 warm-up calls; the difference is mca's own cost per call.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropic } from '../test/helpers/fake-anthropic-server.js';
import { McpManager } from '../src/mcp/mcp-manager.js';
import { parseServerConfig } from '../src/mcp/server-config.js';
import { ToolRegistry } from '../src/tools/registry/registry.js';
import { FileStateRecord } from '../src/tools/files/file-state.js';
import { TodoStore } from '../src/tools/planning/todo-store.js';
import { McpConnection } from '../src/mcp/connection.js';
import { childEnv } from './lib/startup-task.js';
import { watchServer } from './lib/server-clock.js';
import { median } from './lib/stats.js';
import { timedSpawn } from './lib/timed-spawn.js';

export interface McpBenchResult {
  runs: number;
  firstRequestNoneMs: number;
  /** Three servers, no remembered tool lists. */
  firstRequestThreeMs: number;
  /** Three servers, each one's tool list remembered from the previous run. */
  firstRequestRememberedMs: number;
  wallNoneMs: number;
  wallThreeMs: number;
  wallRememberedMs: number;
  calls: number;
  directCallMs: number;
  registryCallMs: number;
}

function serverModules(root: string): Record<string, string> {
  const base = join(root, 'node_modules', '@modelcontextprotocol');
  return {
    everything: join(base, 'server-everything', 'dist', 'index.js'),
    filesystem: join(base, 'server-filesystem', 'dist', 'index.js'),
    memory: join(base, 'server-memory', 'dist', 'index.js'),
  };
}

function threeServers(root: string, project: string, home: string): string {
  const modules = serverModules(root);
  return JSON.stringify({
    mcpServers: {
      everything: { command: process.execPath, args: [modules.everything, 'stdio'] },
      filesystem: { command: process.execPath, args: [modules.filesystem, project] },
      memory: { command: process.execPath, args: [modules.memory], env: { MEMORY_FILE_PATH: join(home, 'm.jsonl') } },
    },
  });
}

async function firstRequests(root: string, runs: number) {
  const fake = await startFakeAnthropic([{ text: 'ok' }], { loop: true });
  const port = Number(new URL(fake.url).port);
  const clock = watchServer(port);
  const project = await realpath(await mkdtemp(join(tmpdir(), 'mca-mcp-bench-')));
  const home = join(project, '.home');
  const env = childEnv({
    ANTHROPIC_API_KEY: 'sk-ant-bench-mcp',
    ANTHROPIC_BASE_URL: fake.url,
    MCA_HOME: home,
    HOME: home,
  });
  const bin = join(root, 'dist', 'cli', 'mca.cjs');
  const three = ['--mcp-config', threeServers(root, project, home)];
  // `three` runs cold (the remembered lists removed first); `remembered` right after it, with the lists it stored.
  const variants = { none: [] as string[], three, remembered: three };
  const figures = {
    none: { first: [] as number[], wall: [] as number[] },
    three: { first: [] as number[], wall: [] as number[] },
    remembered: { first: [] as number[], wall: [] as number[] },
  };
  try {
    for (let round = 0; round <= runs; round += 1) {
      for (const [name, extra] of Object.entries(variants) as Array<[keyof typeof variants, string[]]>) {
        if (name === 'three') await rm(join(home, 'mcp-tools'), { recursive: true, force: true });
        clock.reset();
        const run = await timedSpawn(process.execPath, [bin, '-p', 'Say ok.', ...extra], { env, cwd: project });
        if (run.code !== 0) throw new Error(`mca -p (${name}) exited ${run.code}: ${run.stderr}`);
        const arrival = clock.arrivals[0];
        if (round === 0 || arrival === undefined) continue;
        figures[name].first.push(arrival - run.spawnedAt);
        figures[name].wall.push(run.wallMs);
      }
    }
  } finally {
    clock.close();
    await fake.close();
  }
  return figures;
}

async function perCall(root: string, calls: number) {
  const parsed = parseServerConfig(
    'everything',
    { command: process.execPath, args: [serverModules(root).everything, 'stdio'] },
    { scope: 'flag', source: 'bench' },
  );
  if (!parsed.ok) throw new Error(parsed.message);
  const direct = await McpConnection.open(parsed.config, {
    projectRoot: root,
    timeoutMs: 30_000,
    onToolsChanged: () => undefined,
    onClosed: () => undefined,
  });
  const registry = new ToolRegistry();
  const manager = new McpManager({
    servers: [{ config: parsed.config, gate: 'start' }],
    projectRoot: root,
    registry,
    limits: { connectTimeoutMs: 30_000, toolTimeoutMs: 60_000, maxOutputTokens: 25_000 },
    notice: () => undefined,
    expect: () => undefined,
  });
  await manager.start();
  const signal = new AbortController().signal;
  const context = {
    projectRoot: root,
    signal,
    fileState: new FileStateRecord(),
    todos: new TodoStore(),
    gate: { decide: () => Promise.resolve({ behavior: 'allow' as const }) },
  };
  const time = async (once: (i: number) => Promise<unknown>): Promise<number> => {
    for (let i = 0; i < 20; i += 1) await once(i);
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) await once(i);
    return (performance.now() - started) / calls;
  };
  try {
    const directCallMs = await time((i) => direct.callTool('echo', { message: `m${i}` }, 10_000, signal));
    const registryCallMs = await time((i) =>
      registry.run(
        { id: `toolu_${i}`, name: 'mcp__everything__echo', input: { message: `m${i}` }, source: 'model' },
        context,
      ),
    );
    return { directCallMs, registryCallMs };
  } finally {
    await direct.close();
    await manager.close();
  }
}

export async function runMcpBench(options: { root: string; runs: number }): Promise<McpBenchResult> {
  const figures = await firstRequests(options.root, options.runs);
  const calls = 200;
  const { directCallMs, registryCallMs } = await perCall(options.root, calls);
  return {
    runs: options.runs,
    firstRequestNoneMs: median(figures.none.first),
    firstRequestThreeMs: median(figures.three.first),
    firstRequestRememberedMs: median(figures.remembered.first),
    wallNoneMs: median(figures.none.wall),
    wallThreeMs: median(figures.three.wall),
    wallRememberedMs: median(figures.remembered.wall),
    calls,
    directCallMs,
    registryCallMs,
  };
}

/**
 * MCP through the built binary and the loopback fake model: real servers from npm (server-everything over stdio
 * and streamable HTTP, server-filesystem, server-memory) and small hostile ones (test/fixtures/mcp). What the model
 * is told (the next request's tools and tool_result) and what the user sees (stderr, exit code, files, processes).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeRequestBody,
  type FakeStep,
} from '../helpers/fake-anthropic-server.js';
import { startEverythingRemote } from '../helpers/everything-remote.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { groupAlive } from '../../src/tools/processes/process-group.js';

const KEY = 'sk-ant-test-mcp-0123456789';
const modules = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url));
const EVERYTHING = join(modules, 'server-everything/dist/index.js');
const FILESYSTEM = join(modules, 'server-filesystem/dist/index.js');
const MEMORY = join(modules, 'server-memory/dist/index.js');
const HOSTILE = fileURLToPath(new URL('../fixtures/mcp/hostile-server.mjs', import.meta.url));

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function setup(files: Record<string, string> = {}) {
  const project = tempProject('mca-mcp-', files);
  const userHome = join(dirname(project.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  return { ...project, userHome };
}

type Project = ReturnType<typeof setup>;

function servers(entries: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: entries });
}

async function run(
  project: Project,
  script: FakeStep[],
  args: string[],
  env: Record<string, string> = {},
  format: 'json' | 'text' = 'json',
) {
  fake = await startFakeAnthropic(script);
  return runMca(['-p', 'go', '--output-format', format, ...args], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: fake.url,
      MCA_HOME: project.home,
      HOME: project.userHome,
      ...env,
    },
    timeoutMs: 90_000,
  });
}

/** The tool_result the request after step `index` carries, as text. */
function resultAfter(index: number): string {
  const body = fake?.requests[index + 1]?.body as FakeRequestBody | undefined;
  const last = body?.messages?.at(-1);
  return JSON.stringify(last?.content ?? '');
}

function toolNames(index = 0): string[] {
  const body = fake?.requests[index]?.body as { tools?: Array<{ name: string }> } | undefined;
  return (body?.tools ?? []).map((tool) => tool.name);
}

const call = (name: string, input: unknown) => ({ text: 'calling', calls: [{ name, input }] });
const done = { text: 'done' };

describe('MCP servers from npm', () => {
  it('server-everything over stdio via inline --mcp-config: the tool is listed, an allowed call reaches it and its result reaches the model', async () => {
    const project = setup();
    const result = await run(
      project,
      [call('mcp__everything__echo', { message: 'hi-from-model' }), done],
      [
        '--mcp-config',
        servers({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }),
        '--allowedTools',
        'mcp__everything__echo',
      ],
    );
    expect(result.code).toBe(0);
    const first = fake?.requests[0]?.body as {
      tools?: Array<{ name: string; description: string; input_schema: unknown }>;
    };
    const echo = first.tools?.find((tool) => tool.name === 'mcp__everything__echo');
    expect(echo?.description).toContain('Echo');
    expect(echo?.input_schema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    expect(resultAfter(0)).toContain('Echo: hi-from-model');
  });

  it('in -p an MCP tool no rule allows is denied; a server rule (mcp__server) allows all its tools', async () => {
    const project = setup();
    const config = servers({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    const denied = await run(
      project,
      [call('mcp__everything__get-sum', { a: 2, b: 3 }), done],
      ['--mcp-config', config],
    );
    expect(denied.code).toBe(0);
    expect(resultAfter(0)).toContain('PERMISSION_DENIED');
    expect(JSON.parse(denied.stdout).permission_denials).toHaveLength(1);
    await fake?.close();
    const allowed = await run(
      project,
      [call('mcp__everything__get-sum', { a: 2, b: 3 }), done],
      ['--mcp-config', config, '--allowedTools', 'mcp__everything'],
    );
    expect(allowed.code).toBe(0);
    expect(resultAfter(0)).toContain('5');
    expect(resultAfter(0)).not.toContain('PERMISSION_DENIED');
  });

  it('server-filesystem and server-memory from a --mcp-config file, allowed by settings rules', async () => {
    const project = setup({ 'notes.txt': 'filesystem-says-hello\n' });
    const file = join(project.root, 'mcp-extra.json');
    writeFileSync(
      file,
      servers({
        fs: { command: process.execPath, args: [FILESYSTEM, project.root] },
        memory: {
          command: process.execPath,
          args: [MEMORY],
          env: { MEMORY_FILE_PATH: join(project.home, 'mem.jsonl') },
        },
      }),
    );
    mkdirSync(project.home, { recursive: true });
    writeFileSync(
      join(project.home, 'settings.json'),
      JSON.stringify({ permissions: { allow: ['mcp__fs__*', 'mcp__memory'] } }),
    );
    const result = await run(
      project,
      [
        call('mcp__fs__read_text_file', { path: join(project.root, 'notes.txt') }),
        call('mcp__memory__create_entities', {
          entities: [{ name: 'mca', entityType: 'agent', observations: ['memory-server-stored-this'] }],
        }),
        call('mcp__memory__read_graph', {}),
        done,
      ],
      ['--mcp-config', file],
    );
    expect(result.code).toBe(0);
    expect(resultAfter(0)).toContain('filesystem-says-hello');
    expect(resultAfter(2)).toContain('memory-server-stored-this');
  });

  it('server-everything over streamable HTTP', async () => {
    const project = setup();
    const { child: server, port } = await startEverythingRemote('streamableHttp');
    try {
      const result = await run(
        project,
        [call('mcp__web__echo', { message: 'over-http' }), done],
        [
          '--mcp-config',
          servers({ web: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }),
          '--allowedTools',
          'mcp__web__echo',
        ],
      );
      expect(result.code).toBe(0);
      expect(resultAfter(0)).toContain('Echo: over-http');
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('a result over MAX_MCP_OUTPUT_TOKENS is cut before the model sees it, and Recall pages through the whole', async () => {
    const project = setup();
    const long = Array.from({ length: 400 }, (_, i) => `line-${i}`).join('\n') + '\nTHE-END-MARKER';
    let ref = '';
    const script: FakeStep[] = [
      call('mcp__everything__echo', { message: long }),
      (body: FakeRequestBody) => {
        const text = JSON.stringify(body.messages?.at(-1)?.content ?? '');
        ref = /stored as (r[0-9a-f]{12})/.exec(text)?.[1] ?? 'none';
        return call('Recall', { ref, start_line: 300 });
      },
      done,
    ];
    const result = await run(
      project,
      script,
      [
        '--mcp-config',
        servers({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }),
        '--allowedTools',
        'mcp__everything__echo',
      ],
      { MAX_MCP_OUTPUT_TOKENS: '200' },
    );
    expect(result.code).toBe(0);
    const cut = resultAfter(0);
    expect(cut).toContain('MAX_MCP_OUTPUT_TOKENS=200');
    expect(cut).not.toContain('THE-END-MARKER');
    expect(ref).toMatch(/^r[0-9a-f]{12}$/);
    expect(resultAfter(1)).toContain('THE-END-MARKER');
  });
});

describe('lifecycle', () => {
  it('a remembered tool list: the first request goes with it while the server starts; a call waits for the server; a dropped tool is a clear error; a changed list reaches the next request', async () => {
    const project = setup();
    const toolsFile = join(project.userHome, 'tools.json');
    const gate = join(project.userHome, 'gate');
    const offer = (...names: string[]) =>
      writeFileSync(toolsFile, JSON.stringify(names.map((name) => ({ name, inputSchema: { type: 'object' } }))));
    const env = { HOSTILE_TOOLS_FILE: toolsFile, HOSTILE_GATE_FILE: gate };
    const config = servers({ chg: { command: process.execPath, args: [HOSTILE, 'from-file'], env } });
    const args = ['--mcp-config', config, '--allowedTools', 'mcp__chg'];
    // The server answers initialize only once the gate exists; the fake model opens it when a request arrives.
    const openGate =
      (next: FakeStep): FakeStep =>
      () => {
        writeFileSync(gate, '');
        return typeof next === 'function' ? next({ model: '', messages: [] }, 0) : next;
      };

    // Nothing remembered: the first request waits for the listing, as before (the gate is open).
    offer('work');
    writeFileSync(gate, '');
    const cold = await run(project, [done], args);
    expect(cold.code, cold.stderr).toBe(0);
    expect(toolNames(0)).toContain('mcp__chg__work');
    const entries = readdirSync(join(project.home, 'mcp-tools'));
    expect(entries).toHaveLength(1);
    expect(statSync(join(project.home, 'mcp-tools', entries[0] ?? '')).mode & 0o777).toBe(0o600);

    // The server's list changed between sessions. The first request leaves before the server has even answered
    // initialize (its gate is shut until that request), with the remembered tool; calling it waits for the server,
    // which no longer offers it: a clear error, and the next request carries the list the server offers now.
    offer('added');
    rmSync(gate);
    const changed = await run(project, [openGate(call('mcp__chg__work', {})), done], args);
    expect(changed.code, changed.stderr).toBe(0);
    expect(toolNames(0)).toContain('mcp__chg__work');
    expect(resultAfter(0)).toContain('no longer offers the tool');
    expect(toolNames(1)).toContain('mcp__chg__added');
    expect(toolNames(1)).not.toContain('mcp__chg__work');

    // Remembered again: the new list goes first, and a call made before the server is ready waits and reaches it.
    rmSync(gate);
    const warm = await run(project, [openGate(call('mcp__chg__added', {})), done], args);
    expect(warm.code, warm.stderr).toBe(0);
    expect(toolNames(0)).toContain('mcp__chg__added');
    expect(resultAfter(0)).toContain('called added');
    expect(toolNames(1)).toEqual(toolNames(0));
  });

  it('notifications/tools/list_changed updates the tool list of the next request', async () => {
    const project = setup();
    const result = await run(
      project,
      [call('mcp__grow__work', {}), call('mcp__grow__added', {}), done],
      [
        '--mcp-config',
        servers({ grow: { command: process.execPath, args: [HOSTILE, 'grow'] } }),
        '--allowedTools',
        'mcp__grow',
      ],
    );
    expect(result.code).toBe(0);
    expect(toolNames(0)).toContain('mcp__grow__work');
    expect(toolNames(1)).toContain('mcp__grow__added');
    expect(toolNames(1)).not.toContain('mcp__grow__work');
    expect(resultAfter(1)).toContain('worked');
  });

  it('SIGTERM while a turn waits on the model ends every server process group', async () => {
    const project = setup();
    const pidFile = join(project.root, 'server.pid');
    const childFile = join(project.root, 'child.pid');
    fake = await startFakeAnthropic([{ hang: true }]);
    const result = await runMca(
      [
        '-p',
        'go',
        '--mcp-config',
        servers({
          held: {
            command: process.execPath,
            args: [HOSTILE, 'work'],
            env: { HOSTILE_PID_FILE: pidFile, HOSTILE_CHILD_PID_FILE: childFile },
          },
        }),
      ],
      {
        cwd: project.root,
        env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url, MCA_HOME: project.home, HOME: project.userHome },
        timeoutMs: 60_000,
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if ((fake?.requests.length ?? 0) > 0 && existsSync(childFile)) {
              clearInterval(poll);
              child.kill('SIGTERM');
            }
          }, 50);
        },
      },
    );
    expect(result.code).toBe(143);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await groupAlive(pid)).toBe(false);
  });

  it('legacy SSE transport (server-everything sse)', async () => {
    const project = setup();
    const { child: server, port } = await startEverythingRemote('sse');
    try {
      const result = await run(
        project,
        [call('mcp__old__echo', { message: 'over-sse' }), done],
        [
          '--mcp-config',
          servers({ old: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } }),
          '--allowedTools',
          'mcp__old',
        ],
      );
      expect(result.code, result.stderr).toBe(0);
      expect(resultAfter(0)).toContain('Echo: over-sse');
    } finally {
      server.kill('SIGKILL');
    }
  });
});

describe('many tools', () => {
  it('past 10% of the window in MCP tool definitions, tools load on demand through ToolSearch', async () => {
    const project = setup();
    let target = '';
    const script: FakeStep[] = [
      (body: FakeRequestBody) => {
        // The first tools fit in the budget; the rest wait. Ask for the last one the server offers.
        const listed = new Set(((body as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name));
        target = listed.has('ToolSearch') ? 'mcp__everything__simulate-research-query' : 'none';
        return call('ToolSearch', { query: `select:${target}` });
      },
      done,
    ];
    const result = await run(
      project,
      script,
      ['--mcp-config', servers({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } })],
      { MCA_CONTEXT_WINDOW: '12000' },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(target).toBe('mcp__everything__simulate-research-query');
    expect(toolNames(0)).not.toContain(target);
    expect(resultAfter(0)).toContain(`Loaded 1 tool(s)`);
    expect(toolNames(1)).toContain(target);
  });
});

describe('project .mcp.json and trust', () => {
  it("an untrusted project's .mcp.json starts nothing (listed as not started); trusted and approved, it starts", async () => {
    const marker = 'started-marker.txt';
    const mcpJson = servers({
      proj: { command: process.execPath, args: [HOSTILE, 'work'], env: { HOSTILE_PID_FILE: marker } },
    });
    const project = setup({ '.mcp.json': mcpJson });
    const untrusted = await run(project, [done], []);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain('this project is not trusted');
    expect(existsSync(join(project.root, marker))).toBe(false);
    expect(toolNames()).not.toContain('mcp__proj__work');
    await fake?.close();

    // Trusted but not approved: still pending, nothing runs.
    const env = { ANTHROPIC_API_KEY: KEY, MCA_HOME: project.home, HOME: project.userHome };
    expect((await runMca(['trust'], { cwd: project.root, env })).code).toBe(0);
    const pending = await run(project, [done], []);
    expect(pending.stderr).toContain('not approved');
    expect(existsSync(join(project.root, marker))).toBe(false);
    await fake?.close();

    mkdirSync(join(project.root, '.claude'), { recursive: true });
    writeFileSync(
      join(project.root, '.claude', 'settings.local.json'),
      JSON.stringify({ enabledMcpjsonServers: ['proj'] }),
    );
    const approved = await run(project, [done], []);
    expect(approved.code).toBe(0);
    expect(toolNames()).toContain('mcp__proj__work');
    expect(existsSync(join(project.root, marker))).toBe(true);
  });
});

describe('hostile servers', () => {
  it('a server that hangs at start costs at most MCP_TIMEOUT and one line; the others still work', async () => {
    const project = setup();
    const result = await run(
      project,
      [call('mcp__good__work', {}), done],
      [
        '--mcp-config',
        servers({
          stuck: { command: process.execPath, args: [HOSTILE, 'hang-start'] },
          good: { command: process.execPath, args: [HOSTILE, 'work'] },
        }),
        '--allowedTools',
        'mcp__good',
      ],
      { MCP_TIMEOUT: '1500' },
      'text',
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/MCP server "stuck" .*1500 ms/);
    expect(resultAfter(0)).toContain('worked');
  });

  it('a server that crashes mid-call, floods, or never answers becomes an error observation; mca finishes', async () => {
    const project = setup();
    const result = await run(
      project,
      [
        {
          text: 'three at once',
          calls: [
            { name: 'mcp__crash__work', input: {} },
            { name: 'mcp__flood__work', input: {} },
          ],
        },
        call('mcp__slow__work', {}),
        done,
      ],
      [
        '--mcp-config',
        servers({
          crash: { command: process.execPath, args: [HOSTILE, 'crash-call'] },
          flood: { command: process.execPath, args: [HOSTILE, 'flood'] },
          slow: { command: process.execPath, args: [HOSTILE, 'slow-call'], timeout: 1000 },
        }),
        '--allowedTools',
        'mcp__crash,mcp__flood,mcp__slow',
      ],
      {},
      'text',
    );
    expect(result.code).toBe(0);
    const first = resultAfter(0);
    expect(first).toContain('mcp__crash__work failed');
    expect(first).toContain('mcp__flood__work failed');
    expect(resultAfter(1)).toContain('TIMEOUT');
    expect(result.stderr).toContain('MCP server "crash" failed');
  });

  it('lying tool names are sanitised and never shadow a built-in; escape sequences and bad JSON-RPC lines are neutralised', async () => {
    const project = setup();
    const result = await run(
      project,
      [call('mcp__noisy__noisy', {}), done],
      [
        '--mcp-config',
        servers({
          evil: { command: process.execPath, args: [HOSTILE, 'evil-names'] },
          noisy: { command: process.execPath, args: [HOSTILE, 'garbage'] },
        }),
        '--allowedTools',
        'mcp__noisy',
      ],
      {},
      'text',
    );
    expect(result.code).toBe(0);
    const names = toolNames();
    expect(names.filter((name) => name === 'Read')).toHaveLength(1);
    const evil = names.filter((name) => name.startsWith('mcp__evil__'));
    expect(evil).toContain('mcp__evil__Read');
    expect(evil).toContain('mcp__evil__same_name');
    expect(evil).toContain('mcp__evil__same_name_2');
    expect(evil.every((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name))).toBe(true);
    expect(evil).toHaveLength(5);
    expect(result.stderr).toContain('bad-schema');
    const observed = resultAfter(0);
    expect(observed).toContain('before');
    expect(observed).not.toMatch(/\\u001b|\\u0007|\\u0000/);
    const described = (fake?.requests[0]?.body as { tools?: Array<{ name: string; description: string }> }).tools?.find(
      (tool) => tool.name === 'mcp__noisy__noisy',
    );
    expect(described?.description).not.toContain('\u001b');
  });

  it('after mca exits no server process (nor its child) remains', async () => {
    const project = setup();
    const pidFile = join(project.root, 'server.pid');
    const childFile = join(project.root, 'child.pid');
    const result = await run(
      project,
      [done],
      [
        '--mcp-config',
        servers({
          lingering: {
            command: process.execPath,
            args: [HOSTILE, 'work'],
            env: { HOSTILE_PID_FILE: pidFile, HOSTILE_CHILD_PID_FILE: childFile },
          },
        }),
      ],
    );
    expect(result.code).toBe(0);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(Number(readFileSync(childFile, 'utf8'))).toBeGreaterThan(0);
    expect(await groupAlive(pid)).toBe(false);
  });
});

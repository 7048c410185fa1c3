/**
 * What each command line loads, through the BUILT binary: a loader hook (test/helpers/record-chunks.mjs) lists
 * the dist chunks a run loaded, and esbuild's metafile (build/meta.json, written by scripts/build.mjs) names the
 * source and node_modules files inside each chunk. A plain `-p` answer must not load the REPL stack or any heavy
 * module it does not use; each lazy module has a positive control (the thing that needs it makes it load), so the
 * checks cannot pass by recording nothing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakeStep } from '../helpers/fake-anthropic-server.js';
import { act, finish } from '../e2e/support/agent-script.js';
import { runMca, type McaRun } from '../helpers/run-mca.js';
import { tempProject, type TempProject } from '../helpers/temp-project.js';
import {
  loadedChunks,
  packageOf,
  readMeta,
  RECORD_PRELOAD,
  REPO,
  type LoadedChunks,
} from '../helpers/loaded-chunks.js';

const MAIN_JS = join(REPO, 'dist', 'cli', 'main.js');
const KEY = 'sk-ant-test-start-path-0123456789';

/** Modules a plain `-p` answer never needs: the REPL, rendering, and what only some replies or projects need. */
const NOT_ON_PRINT_PATH = [
  'ink',
  'react',
  'cli-highlight',
  'marked',
  'yaml',
  'jsonrepair',
  'shell-quote',
  'picomatch',
  // The tools' schemas and libraries: loaded on the first call of a tool that needs them.
  'zod',
  'fast-glob',
  'diff',
  'ignore',
  // The MCP client: loaded only when a server is configured.
  '@modelcontextprotocol/client',
  // The ACP SDK: loaded only by `mca --acp`.
  '@agentclientprotocol/sdk',
];

/**
 * Our own modules a plain `-p` answer must not load: each is imported where it is needed (the checkpoint store by
 * the first call that changes files, the subagent loop by the first delegation, the MCP start-up when a server is
 * configured, Claude Code's JSON sinks for their output formats, the ripgrep engine by the first search). The positive controls are in the tests below.
 */
const OWN_LAZY_MODULES = [
  'src/checkpoints/session-checkpoints.ts',
  'src/checkpoints/project-scan.ts',
  'src/checkpoints/rewind.ts',
  'src/subagents/subagent-run.ts',
  'src/runtime/mcp-start.ts',
  'src/sinks/claude-code-sink.ts',
  'src/tools/grep/grep-ripgrep.ts',
  // Round four: background shells, the edit tools' working code, the sandbox's settings resolver, the trust
  // question's items (asked by the REPL only) and the proxy tunnel (only with a proxy configured).
  'src/tools/processes/background-tasks.ts',
  'src/tools/editing/file-change.ts',
  'src/sandbox/sandbox-settings.ts',
  'src/runtime/trust-question.ts',
  'src/providers/proxy-tunnel.ts',
  // Round four (2): what the built-in tools run (Bash, Read, Grep, LS, Glob, WebFetch); their definitions stay.
  'src/tools/registry/tool-code.ts',
  'src/tools/processes/bash-run.ts',
  'src/tools/files/read-run.ts',
  // Claude Code's forms of a call's input and of the MCP servers: only its JSON output formats write them.
  'src/claude-code/tool-input.ts',
  'src/claude-code/mcp.ts',
  // Claude Code's system lines (stream-json's hook events) and the --max-budget-usd budget with its price table.
  'src/claude-code/system.ts',
  'src/claude-code/cost-budget.ts',
];

/**
 * The most JavaScript (bytes of the dist chunks it loads, the launcher included) a plain `mca -p` answer may load.
 * A ratchet, not the goal: issue 42 asks for 320 kB (what the path loaded a week before). History: 575,705 bytes in
 * 46 chunks before issue 42; 512,697 in 66 after its first lazy imports; 598,745 in 78 when round three merged (the
 * background tasks, the sandbox's settings, the trust items). Round four (BENCHMARKS.md, "Issue 42 start-up, round
 * four"): 545,467 bytes in 12 files; the background-task code, the sandbox resolver, the trust question's items,
 * the proxy tunnel and the edit tools' working code load at first use. What is left is the path's own core: the
 * context engine (74 kB), commander (56 kB), the tool definitions with their result forms, the providers, the loop,
 * the driver and the session store. Round four (2) ("Issue 42 start-up, round four (2)"): 495,859 bytes; the
 * built-in tools' working code (tool-code.ts), Claude Code's JSON-only forms and the budget load when used. At the
 * merge with the same round's other branches: 498,169 bytes (the request built from the previous step's parts, the
 * init line's slash commands), so 500 kB. Commander replaced by src/cli/arg-grammar.ts ("Issue 42 start-up:
 * commander replaced"): 450,569 bytes, so 452 kB. Lower it as the path shrinks; raising it needs a reason in
 * BENCHMARKS.md.
 */
const PRINT_PATH_BUDGET_BYTES = 452_000;

/**
 * The most dist files a plain `mca -p` answer may load. Node's ES module loader pays per file (resolve, read,
 * compile, link) about as much as for the bytes: scripts/core-chunk.mjs keeps the `-p` core in one chunk (78 files
 * before it, 12 with it). A new lazy import that splits the core again fails here.
 */
const PRINT_PATH_MAX_CHUNKS = 14;

const meta = readMeta();

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Loaded extends LoadedChunks {
  run: McaRun;
}

async function loadedBy(
  args: string[],
  options: { project?: TempProject; script?: FakeStep[]; entry?: string } = {},
): Promise<Loaded> {
  const project = options.project ?? tempProject('mca-start-path-');
  const record = join(dirname(project.root), 'loaded-modules.txt');
  writeFileSync(record, '');
  server = await startFakeAnthropic(options.script ?? [finish('done', 'ok')]);
  const run = await runMca(args, {
    ...(options.entry ? { entry: options.entry } : {}),
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: project.home,
      HOME: join(dirname(project.root), 'userhome'),
      NODE_OPTIONS: `--import=${RECORD_PRELOAD}`,
      MCA_RECORD_CHUNKS: record,
    },
  });
  return { run, ...loadedChunks(record, meta) };
}

function project(files: Record<string, string>): TempProject {
  const made = tempProject('mca-start-path-', files);
  mkdirSync(join(dirname(made.root), 'userhome'), { recursive: true });
  return made;
}

describe('the bundle and its metafile', () => {
  it('every module name checked below is in some chunk, so no check passes by a misspelt name', () => {
    const bundled = new Set(
      Object.values(meta.outputs).flatMap((output) =>
        Object.keys(output.inputs).flatMap((input) => packageOf(input) ?? []),
      ),
    );
    for (const name of NOT_ON_PRINT_PATH) {
      expect(bundled, name).toContain(name);
    }
  });
});

describe('modules loaded on the start path (built binary)', () => {
  it('-p with a plain answer loads the program and the provider, and none of the heavy modules it does not use', async () => {
    const loaded = await loadedBy(['-p', 'say ok']);
    expect(loaded.run.code, loaded.run.stderr).toBe(0);
    expect(loaded.run.stdout).toBe('ok\n');
    // The recorder saw the run: the command line, print mode and the transport the answer came through.
    expect(loaded.inputs).toContain('src/cli/arg-grammar.ts');
    expect(loaded.inputs).toContain('src/cli/modes/print-mode.ts');
    expect(loaded.inputs).toContain('src/providers/http-transport.ts');
    for (const name of NOT_ON_PRINT_PATH) expect(loaded.packages, name).not.toContain(name);
    // Our own code that only the REPL or a custom command needs stays out as well.
    const uiOrCommands = [...loaded.inputs].filter((input) =>
      /^src\/(ui\/|acp\/|commands\/expand-command|mcp\/(mcp-manager|connection|stdio-transport))/.test(input),
    );
    expect(uiOrCommands).toEqual([]);
    for (const input of OWN_LAZY_MODULES) expect(loaded.inputs, input).not.toContain(input);
  });

  it(`-p with a plain answer loads at most ${PRINT_PATH_BUDGET_BYTES} bytes of JavaScript in ${PRINT_PATH_MAX_CHUNKS} files`, async () => {
    const loaded = await loadedBy(['-p', 'say ok']);
    expect(loaded.run.code, loaded.run.stderr).toBe(0);
    // The recorder saw the whole path (the launcher, the entry, print mode), so the sum cannot pass by missing it.
    expect(loaded.chunks).toContain('dist/cli/mca.cjs');
    expect(loaded.chunks).toContain('dist/cli/main.js');
    expect(loaded.inputs).toContain('src/cli/modes/print-mode.ts');
    const report = `${loaded.bytes} bytes in ${loaded.chunks.length} chunks`;
    expect(loaded.bytes, report).toBeLessThanOrEqual(PRINT_PATH_BUDGET_BYTES);
    expect(loaded.chunks.length, report).toBeLessThanOrEqual(PRINT_PATH_MAX_CHUNKS);
  });

  it('--version is answered by the CommonJS launcher alone: no ES module of the bundle loads', async () => {
    const loaded = await loadedBy(['--version']);
    expect(loaded.run.code).toBe(0);
    expect(loaded.run.stdout).toMatch(/^\d+\.\d+\.\d+.* \(mca\)\n$/);
    expect(loaded.chunks).toEqual(['dist/cli/mca.cjs']);
    expect([...loaded.inputs].sort()).toEqual(['src/cli/launcher.ts', 'src/cli/version.ts']);
  });

  it('main.js run directly answers --version with the entry and the version reader only', async () => {
    const loaded = await loadedBy(['--version'], { entry: MAIN_JS });
    expect(loaded.run.code).toBe(0);
    expect(loaded.run.stdout).toMatch(/^\d+\.\d+\.\d+.* \(mca\)\n$/);
    expect(loaded.chunks).toContain('dist/cli/main.js');
    expect([...loaded.inputs].sort()).toEqual(['src/cli/main.ts', 'src/cli/version.ts']);
  });

  it('--help loads the command line only: no argument library, no config loader, no zod', async () => {
    const loaded = await loadedBy(['--help']);
    expect(loaded.run.code).toBe(0);
    expect(loaded.run.stdout).toContain('--permission-mode <mode>');
    expect(loaded.run.stdout).toContain('"bypassPermissions"');
    expect([...loaded.packages]).toEqual([]);
    const ours = [...loaded.inputs].filter((input) => packageOf(input) === undefined);
    // Besides src/cli: the flag choices, the model catalog (the default model the help names; a leaf of data), and
    // the leaves every error line needs (the McaError base CliError extends, the session error's code, the escaping).
    expect(ours.filter((input) => !input.startsWith('src/cli/')).sort()).toEqual([
      'src/config/config-choices.ts',
      'src/config/model-catalog.ts',
      'src/errors/mca-error.ts',
      'src/store/session-error.ts',
      'src/text/terminal-safe.ts',
    ]);
    expect(loaded.inputs).not.toContain('src/config/config.ts');
  });
});

describe('each lazy module loads when something needs it', () => {
  it('yaml: for a custom command with frontmatter, not for one without', async () => {
    const plain = project({ '.mca/commands/plain.md': 'Say $ARGUMENTS\n' });
    const withoutFront = await loadedBy(['-p', '/plain hi'], { project: plain });
    expect(withoutFront.run.code, withoutFront.run.stderr).toBe(0);
    expect(withoutFront.inputs).toContain('src/commands/expand-command.ts');
    expect(withoutFront.packages).not.toContain('yaml');

    const fronted = project({ '.mca/commands/fronted.md': '---\ndescription: greet\n---\nSay $ARGUMENTS\n' });
    const withFront = await loadedBy(['-p', '/fronted hi'], { project: fronted });
    expect(withFront.run.code, withFront.run.stderr).toBe(0);
    expect(withFront.packages).toContain('yaml');
  });

  it("picomatch (the bash parser is mca's own code): when a rule applies to a command that runs", async () => {
    const script = [act('look', 'Bash', { command: 'echo hi' }), finish('done', 'ok')];
    const ruled = await loadedBy(['-p', 'go', '--allowedTools', 'Bash(echo:*)'], { project: project({}), script });
    expect(ruled.run.code, ruled.run.stderr).toBe(0);
    expect(server?.requests).toHaveLength(2);
    expect(ruled.packages).toContain('picomatch');
    // The Bash call is checkpointed: the store's code loaded for it; and Bash loads the background shells' code.
    expect(ruled.inputs).toContain('src/checkpoints/session-checkpoints.ts');
    expect(ruled.inputs).toContain('src/tools/processes/background-tasks.ts');
    // A valid input is accepted from the tool's build-time JSON Schema: zod stays unloaded (the zod test below).
    expect(ruled.packages).not.toContain('zod');

    // A rule for another tool does not apply to a plain answer: the matchers stay unloaded.
    const unrelated = await loadedBy(['-p', 'go', '--disallowedTools', 'Bash(rm:*)'], { project: project({}) });
    expect(unrelated.run.code, unrelated.run.stderr).toBe(0);
    expect(unrelated.packages).not.toContain('shell-quote');
    expect(unrelated.packages).not.toContain('picomatch');
  });

  it('zod: for a tool call whose input is invalid (zod words the message the model gets), not for a valid one', async () => {
    const invalid = [act('look', 'Read', { path: 'a.txt', limit: 0 }), finish('done', 'ok')];
    const checked = await loadedBy(['-p', 'go'], { project: project({ 'a.txt': 'x\n' }), script: invalid });
    expect(checked.run.code, checked.run.stderr).toBe(0);
    expect(JSON.stringify(server?.requests[1]?.body)).toContain('Invalid input for Read: \\"limit\\" is too small');
    expect(checked.packages).toContain('zod');

    const valid = [act('look', 'Read', { path: 'a.txt' }), finish('done', 'ok')];
    const plain = await loadedBy(['-p', 'go'], { project: project({ 'a.txt': 'x\n' }), script: valid });
    expect(plain.run.code, plain.run.stderr).toBe(0);
    expect(JSON.stringify(server?.requests[1]?.body)).toContain('a.txt');
    expect(plain.packages).not.toContain('zod');
  });

  it('a Glob with a simple pattern walks on the main thread: no fast-glob, no walk worker; the result reaches the model', async () => {
    const files = { 'src/a.ts': 'export const a = 1;\n', 'src/b.md': '# b\n' };
    const script = [act('look', 'Glob', { pattern: '**/*.ts' }), finish('done', 'ok')];
    const loaded = await loadedBy(['-p', 'go'], { project: project(files), script });
    expect(loaded.run.code, loaded.run.stderr).toBe(0);
    expect(JSON.stringify(server?.requests[1]?.body)).toContain('src/a.ts');
    expect(loaded.inputs).toContain('src/tools/walking/walk-simple.ts');
    expect(loaded.packages).not.toContain('fast-glob');
    expect(loaded.chunks).not.toContain('dist/cli/walk-worker.js');
  });

  it('the hook engine: only when a hook is configured, and no hook process without one', async () => {
    const plain = await loadedBy(['-p', 'say ok'], { project: project({}) });
    expect(plain.run.code, plain.run.stderr).toBe(0);
    // The settings loader ran (it reads the hooks key) but the engine was not imported.
    expect(plain.inputs).toContain('src/hooks/hook-sources.ts');
    expect(plain.inputs).not.toContain('src/hooks/hook-engine.ts');
    expect(plain.inputs).not.toContain('src/hooks/hook-process.ts');

    const hooked = project({});
    mkdirSync(hooked.home, { recursive: true });
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'exit 0' }] }] } };
    writeFileSync(join(hooked.home, 'settings.json'), JSON.stringify(settings));
    const withHook = await loadedBy(['-p', 'say ok'], { project: hooked });
    expect(withHook.run.code, withHook.run.stderr).toBe(0);
    expect(withHook.inputs).toContain('src/hooks/hook-engine.ts');
  });

  it('the MCP client: when a server is configured, not otherwise', async () => {
    const hostile = fileURLToPath(new URL('../fixtures/mcp/hostile-server.mjs', import.meta.url));
    const config = JSON.stringify({ mcpServers: { one: { command: process.execPath, args: [hostile, 'work'] } } });
    const withServer = await loadedBy(['-p', 'go', '--mcp-config', config], { project: project({}) });
    expect(withServer.run.code, withServer.run.stderr).toBe(0);
    expect(withServer.packages).toContain('@modelcontextprotocol/client');
    expect(withServer.inputs).toContain('src/mcp/mcp-manager.ts');
    expect(withServer.inputs).toContain('src/runtime/mcp-start.ts');
  });

  it("Claude Code's JSON sink: for --output-format json", async () => {
    const json = await loadedBy(['-p', 'say ok', '--output-format', 'json'], { project: project({}) });
    expect(json.run.code, json.run.stderr).toBe(0);
    expect(JSON.parse(json.run.stdout)).toMatchObject({ result: 'ok' });
    expect(json.inputs).toContain('src/sinks/claude-code-sink.ts');
    expect(json.inputs).toContain('src/claude-code/tool-input.ts');
    expect(json.inputs).toContain('src/claude-code/mcp.ts');
  });

  it("the edit tools' working code: on the first Write, which writes the file", async () => {
    const script = [act('write', 'Write', { path: 'b.txt', content: 'new\n' }), finish('done', 'ok')];
    const made = project({});
    const wrote = await loadedBy(['-p', 'go', '--permission-mode', 'acceptEdits'], { project: made, script });
    expect(wrote.run.code, wrote.run.stderr).toBe(0);
    expect(readFileSync(join(made.root, 'b.txt'), 'utf8')).toBe('new\n');
    expect(wrote.inputs).toContain('src/tools/editing/file-change.ts');
  });

  it("the sandbox's settings resolver: when --sandbox or --no-sandbox is given", async () => {
    const flagged = await loadedBy(['-p', 'say ok', '--no-sandbox'], { project: project({}) });
    expect(flagged.run.code, flagged.run.stderr).toBe(0);
    expect(flagged.inputs).toContain('src/sandbox/sandbox-settings.ts');
  });

  it('the ripgrep engine: on the first Grep', async () => {
    const script = [act('look', 'Grep', { pattern: 'needle' }), finish('done', 'ok')];
    const searched = await loadedBy(['-p', 'go'], { project: project({ 'a.txt': 'needle\n' }), script });
    expect(searched.run.code, searched.run.stderr).toBe(0);
    expect(JSON.stringify(server?.requests[1]?.body)).toContain('a.txt');
    expect(searched.inputs).toContain('src/tools/grep/grep-ripgrep.ts');
    // The tools' working code came with the first call.
    expect(searched.inputs).toContain('src/tools/registry/tool-code.ts');
    expect(searched.inputs).toContain('src/tools/grep/grep-run.ts');
  });

  it('jsonrepair: for a text-protocol reply whose action JSON is broken, not for a well-formed one', async () => {
    const broken: FakeStep[] = [{ text: 'Thought: look\nAction: LS[{"path": ".",}]' }, finish('done', 'ok')];
    const repaired = await loadedBy(['-p', 'go', '--tool-protocol', 'text'], { project: project({}), script: broken });
    expect(repaired.run.code, repaired.run.stderr).toBe(0);
    expect(server?.requests).toHaveLength(2);
    expect(repaired.packages).toContain('jsonrepair');

    const wellFormed = [act('look', 'LS', { path: '.' }), finish('done', 'ok')];
    const plain = await loadedBy(['-p', 'go', '--tool-protocol', 'text'], { project: project({}), script: wellFormed });
    expect(plain.run.code, plain.run.stderr).toBe(0);
    expect(plain.packages).not.toContain('jsonrepair');
  });
});

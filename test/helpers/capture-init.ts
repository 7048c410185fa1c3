/**
 * The `system`/`init` line of Claude Code's binary or mca's for one project setup, in both stream-json modes: `-p hi`
 * (a prompt argument) and `--input-format stream-json` (a host's initialize and one user message). The project has a
 * custom command (`hello-cmd`), a skill (`proj-skill`) and a subagent (`proj-agent`) under `.claude/`, is trusted
 * (Claude Code's `~/.claude.json`, `mca trust`), and loads test/fixtures/plugins/demo-plugin with `--plugin-dir`
 * (command `demo:greet`, skill `demo:tidy-notes`, agent `demo:reviewer`, MCP server `plugin:demo:notes`).
 *   tsx test/helpers/capture-init.ts <out.json>   writes Claude Code's golden (test/fixtures/claude-code-stream/init.json)
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLAUDE_BIN } from './capture-claude-code.js';
import { startFakeAnthropic } from './fake-anthropic-server.js';
import { MCA_BIN } from './run-mca.js';
import { parseLines, shapesOf } from './stream-shapes.js';

const PLUGIN = fileURLToPath(new URL('../fixtures/plugins/demo-plugin', import.meta.url));

/** The names the setup brings (Claude Code adds its own built-ins beside them; mca its own). */
export const SETUP_NAMES = {
  commands: ['hello-cmd', 'proj-skill', 'demo:greet', 'demo:tidy-notes'],
  skills: ['proj-skill', 'demo:tidy-notes'],
  agents: ['proj-agent', 'demo:reviewer'],
};

export type InitMode = 'print' | 'input';

function project(mca: boolean): { home: string; root: string; plugin: string } {
  const home = mkdtempSync(join(tmpdir(), 'init-home-'));
  const root = mkdtempSync(join(tmpdir(), 'init-project-'));
  const write = (path: string, text: string): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('.claude/commands/hello-cmd.md', '---\ndescription: say hello\n---\nSay hello\n');
  write('.claude/skills/proj-skill/SKILL.md', '---\nname: proj-skill\ndescription: a project skill\n---\nDo it\n');
  write('.claude/agents/proj-agent.md', '---\nname: proj-agent\ndescription: a project agent\n---\nYou are.\n');
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ projects: { [root]: { hasTrustDialogAccepted: true } } }));
  const plugin = join(home, 'demo-plugin');
  cpSync(PLUGIN, plugin, { recursive: true });
  if (mca) {
    spawnSync(process.execPath, [MCA_BIN, 'trust', root], {
      env: { PATH: process.env.PATH ?? '', HOME: home, MCA_HOME: join(home, '.mca') },
    });
  }
  return { home, root, plugin };
}

/** Every stdout line of one run (`flags` go before the mode's own). */
export async function runInit(program: 'claude' | 'mca', mode: InitMode, flags: string[] = []) {
  const fake = await startFakeAnthropic([{ text: 'ok' }], { loop: true });
  const { home, root, plugin } = project(program === 'mca');
  const [command, pre] = program === 'claude' ? [CLAUDE_BIN, []] : [process.execPath, [MCA_BIN]];
  const modeFlags = mode === 'print' ? ['-p', 'hi'] : ['-p', '--input-format', 'stream-json'];
  const child = spawn(
    command,
    [...pre, '--plugin-dir', plugin, ...flags, ...modeFlags, '--output-format', 'stream-json', '--verbose'],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        MCA_HOME: join(home, '.mca'),
        ANTHROPIC_API_KEY: 'sk-ant-capture-dummy-0123456789',
        ANTHROPIC_BASE_URL: fake.url,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (mode === 'input' && stdout.includes('"type":"result"') && child.stdin.writable) child.stdin.end();
  });
  if (mode === 'input') {
    const send = (message: object): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ type: 'control_request', request_id: 'init-1', request: { subtype: 'initialize' } });
    send({ type: 'user', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null, session_id: '' });
  } else child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  await fake.close();
  return { lines: parseLines(stdout), code, stderr, plugin };
}

/** What the golden keeps of an init line: its shape, and the parts the setup decides. */
export function initFacts(init: Record<string, unknown>, plugin: string) {
  const names = (key: string, wanted: readonly string[]) =>
    ((init[key] as string[] | undefined) ?? []).filter((name) => wanted.includes(name)).sort();
  const plugins = (init.plugins as Array<Record<string, unknown>>).filter((entry) => entry.path === plugin);
  return {
    mcp_servers: init.mcp_servers,
    tools: (init.tools as string[]).filter((tool) => tool.startsWith('mcp__')),
    slash_commands: names('slash_commands', SETUP_NAMES.commands),
    skills: names('skills', SETUP_NAMES.skills),
    agents: names('agents', SETUP_NAMES.agents),
    plugins: plugins.map((entry) => ({ ...entry, path: '<plugin dir>' })),
    output_style: init.output_style,
  };
}

export function initOf(lines: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const init = lines.find((line) => line.type === 'system' && line.subtype === 'init');
  if (!init) throw new Error('no init line');
  return init;
}

if (process.argv[1]?.endsWith('capture-init.ts')) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: capture-init <out.json>');
  const facts: Record<string, unknown> = {};
  const shapes: Record<string, unknown> = {};
  for (const [name, mode, flags] of [
    ['print', 'print', []],
    ['input', 'input', []],
    ['print-strict-mcp-config', 'print', ['--strict-mcp-config']],
  ] as const) {
    const run = await runInit('claude', mode, [...flags]);
    const init = initOf(run.lines);
    facts[name] = initFacts(init, run.plugin);
    shapes[name] = shapesOf([init])['system/init'];
  }
  const source =
    'Claude Code 2.1.332 (the Agent SDK 0.3.332 binary): its system/init for the setup of test/helpers/capture-init.ts ' +
    '(captured 2026-11-29). facts: the parts the setup decides (names filtered to the setup, the plugin dir elided).';
  writeFileSync(out, `${JSON.stringify({ source, facts, shapes }, null, 2)}\n`);
}

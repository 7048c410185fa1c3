/**
 * Issue 37: Bash in the real box (bubblewrap + socat + mca's proxy) through the built binary in `-p`, with the
 * loopback fake model. Each case reads what the model was told after the command (the next request) and what is
 * on disk. HOME is a temp directory with a planted ~/.ssh/id_rsa. Without bubblewrap or socat the file skips with
 * a printed reason (MCA_REQUIRE_OPTIONAL_TOOLS=1 makes it mandatory).
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { startFakeAnthropic, userText, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { runsWith, sandboxWorks } from '../helpers/optional-tools.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject, writeJsonFile } from '../helpers/temp-project.js';
import { act, finish } from './support/agent-script.js';

const RUNS = runsWith('bwrap and socat', sandboxWorks(), 'the sandbox e2e tests');
const KEY = 'sk-ant-test-sandbox-0123456789';
const SECRET = 'PLANTED-PRIVATE-KEY-0xC0FFEE';

let server: FakeAnthropic | undefined;
let target: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await new Promise<void>((resolve) => (target ? target.close(() => resolve()) : resolve()));
  target = undefined;
});

interface Setup {
  root: string;
  home: string;
  userHome: string;
  outside: string;
}

function setup(settings?: unknown, files: Record<string, string> = {}): Setup {
  const project = tempProject('mca-box-', files);
  const base = dirname(project.root);
  const userHome = join(base, 'userhome');
  // Outside the project and outside /tmp (the box has its own /tmp, so a path there would only be missing).
  const outside = mkdtempSync('/var/tmp/mca-box-outside-');
  onTestFinished(() => rmSync(outside, { recursive: true, force: true }));
  mkdirSync(join(userHome, '.ssh'), { recursive: true });
  writeFileSync(join(userHome, '.ssh', 'id_rsa'), SECRET);
  if (settings !== undefined) writeJsonFile(join(userHome, '.claude', 'settings.json'), { sandbox: settings });
  return { ...project, userHome, outside };
}

async function run(where: Setup, script: FakeStep[], args: string[] = []) {
  server = await startFakeAnthropic(script);
  return runMca(['-p', 'go', ...args], {
    cwd: where.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: where.home,
      HOME: where.userHome,
      MCA_TOOL_PROTOCOL: 'text',
    },
    timeoutMs: 60_000,
  });
}

/** What the model was told after step `index`. */
function observationAfter(index: number): string {
  const body = server?.requests[index + 1]?.body;
  if (!body) throw new Error(`no request after step ${index}`);
  const text = userText(body);
  return text.slice(Math.max(0, text.lastIndexOf('Observation:')));
}

async function startTarget(): Promise<number> {
  target = createServer((_request, response) => response.end('hello from the listed host\n'));
  await new Promise<void>((resolve) => target?.listen(0, '127.0.0.1', () => resolve()));
  const address = target.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe.runIf(RUNS)('Bash in the sandbox (-p, real bubblewrap)', () => {
  it('a write inside the project runs with no question; a write outside the project fails and the result names the path', async () => {
    const where = setup({ enabled: true });
    const result = await run(where, [
      act('write inside', 'Bash', { command: 'echo hi > inside.txt && cat inside.txt && echo x > /dev/null' }),
      act('write outside', 'Bash', { command: `echo x > ${where.outside}/escape.txt` }),
      finish('done', 'done'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(where.root, 'inside.txt'), 'utf8')).toBe('hi\n');
    expect(observationAfter(0)).not.toContain('PERMISSION_DENIED');
    expect(existsSync(join(where.outside, 'escape.txt'))).toBe(false);
    const told = observationAfter(1);
    expect(told).toContain('Read-only file system');
    expect(told).toContain(`[sandbox]`);
    expect(told).toContain(`writing ${where.outside}/escape.txt`);
  });

  it('the private temp directory: $TMPDIR keeps files between commands; writing /tmp itself fails and is explained', async () => {
    const where = setup({ enabled: true });
    await run(where, [
      act('temp', 'Bash', { command: 'echo kept > "$TMPDIR/note.txt"' }),
      act('again', 'Bash', { command: 'cat "$TMPDIR/note.txt" && echo x > /tmp/direct.txt' }),
      finish('done', 'done'),
    ]);
    const told = observationAfter(1);
    expect(told).toContain('kept');
    expect(told).toContain('writing /tmp/direct.txt');
    expect(existsSync('/tmp/direct.txt')).toBe(false);
  });

  it('without the box the same write inside the project is asked, so -p refuses it (the box is what allows it)', async () => {
    const where = setup({ enabled: true });
    await run(
      where,
      [act('write', 'Bash', { command: 'echo hi > inside.txt' }), finish('done', 'done')],
      ['--no-sandbox'],
    );
    expect(observationAfter(0)).toContain('PERMISSION_DENIED');
    expect(existsSync(join(where.root, 'inside.txt'))).toBe(false);
  });

  it('cat ~/.ssh/id_rsa fails inside the box and the result says the place is hidden', async () => {
    const where = setup({ enabled: true });
    await run(where, [act('read key', 'Bash', { command: 'cat ~/.ssh/id_rsa' }), finish('done', 'done')]);
    const told = observationAfter(0);
    expect(told).not.toContain(SECRET);
    expect(told).toContain('reading ~/.ssh');
  });

  it('a listed host is reached through the proxy; a loopback address the list does not name is refused and named', async () => {
    const port = await startTarget();
    const where = setup({ enabled: true, network: { allowedDomains: ['localhost'] } });
    await run(where, [
      act('listed', 'Bash', { command: `curl -sS --max-time 10 http://localhost:${port}/` }),
      act('not listed', 'Bash', { command: `curl -sS --max-time 10 http://127.0.0.1:${port}/` }),
      act('no proxy', 'Bash', { command: `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${port}/` }),
      finish('done', 'done'),
    ]);
    expect(observationAfter(0)).toContain('hello from the listed host');
    const refused = observationAfter(1);
    expect(refused).not.toContain('hello from the listed host');
    expect(refused).toContain(`network access to 127.0.0.1:${port} (not in sandbox.network.allowedDomains)`);
    expect(observationAfter(2)).not.toContain('hello from the listed host');
  });

  it('control files stay read-only in the box, even where they do not exist yet (and no placeholder is left)', async () => {
    const where = setup({ enabled: true }, { '.claude/settings.json': '{}' });
    execFileSync('git', ['init', '-q', where.root]);
    await run(where, [
      act('settings', 'Bash', { command: `echo '{"permissions":{"allow":["Bash"]}}' > .claude/settings.json` }),
      act('hook', 'Bash', { command: 'echo "touch ../PWNED" > .git/hooks/pre-commit' }),
      act('mca', 'Bash', { command: 'mkdir -p .mca && echo x > .mca/settings.json' }),
      finish('done', 'done'),
    ]);
    expect(readFileSync(join(where.root, '.claude/settings.json'), 'utf8')).toBe('{}');
    expect(existsSync(join(where.root, '.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(join(where.root, '.mca'))).toBe(false);
    for (const step of [0, 1, 2]) expect(observationAfter(step)).toContain('[sandbox]');
  });

  it("in a linked git worktree, git commit works in the box while the repository's hooks and config stay read-only", async () => {
    const where = setup({ enabled: true });
    const main = join(dirname(where.root), 'main');
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd, stdio: 'pipe' });
    git(dirname(where.root), 'init', '-q', main);
    git(main, 'commit', '-q', '--allow-empty', '-m', 'first');
    const worktree = join(dirname(where.root), 'wt');
    git(main, 'worktree', 'add', '-q', worktree);
    await run({ ...where, root: worktree }, [
      act('commit', 'Bash', {
        command:
          "echo a > a.txt && git add a.txt && git -c user.name=t -c user.email=t@e commit -qm 'in the box' && git log --oneline -1",
      }),
      act('hook', 'Bash', { command: `echo 'touch /var/tmp/x' > ${main}/.git/hooks/post-commit` }),
      finish('done', 'done'),
    ]);
    expect(observationAfter(0)).toContain('in the box');
    expect(observationAfter(1)).toContain('Read-only file system');
    expect(existsSync(join(main, '.git', 'hooks', 'post-commit'))).toBe(false);
  });

  it('a timeout kills the boxed command and everything it started', async () => {
    const where = setup({ enabled: true });
    const marker = `${Date.now() % 100000}.123`;
    await run(where, [
      act('hang', 'Bash', { command: `sleep ${marker} & sleep ${marker}`, timeout_ms: 1500 }),
      finish('done', 'done'),
    ]);
    expect(observationAfter(0)).toContain('TIMEOUT');
    const left = async (): Promise<string[]> => {
      // Wait for the state (the namespace's processes gone), bounded: their end follows the box's end.
      for (let tries = 0; ; tries += 1) {
        const lines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
          .split('\n')
          .filter((line) => line.includes(`sleep ${marker}`));
        if (lines.length === 0 || tries >= 50) return lines;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    expect(await left()).toEqual([]);
  });

  it('checkpoints cover a boxed command: mca rewind restores what it changed in the project', async () => {
    const where = setup({ enabled: true }, { 'keep.txt': 'one\n' });
    execFileSync('git', ['init', '-q', where.root]);
    await run(where, [
      act('change', 'Bash', { command: 'printf made > created.txt && echo two >> keep.txt' }),
      finish('done', 'done'),
    ]);
    expect(readFileSync(join(where.root, 'keep.txt'), 'utf8')).toBe('one\ntwo\n');
    const list = await runMca(['rewind', '--list'], { cwd: where.root, env: { MCA_HOME: where.home } });
    const id = list.stdout.trim().split('\n')[0]?.slice(0, 8) ?? '';
    const rewound = await runMca(['rewind', id], { cwd: where.root, env: { MCA_HOME: where.home } });
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(readFileSync(join(where.root, 'keep.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(where.root, 'created.txt'))).toBe(false);
  });

  it("a trusted project's hook commands and stdio MCP servers run in the box; the user's own hooks do not", async () => {
    const where = setup({ enabled: true });
    const server = fileURLToPath(new URL('../fixtures/mcp/hostile-server.mjs', import.meta.url));
    const hook = (name: string) => ({
      hooks: [{ type: 'command', command: `touch ${where.outside}/${name}-outside; touch ${name}-inside` }],
    });
    writeJsonFile(join(where.root, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', ...hook('project-hook') }] },
    });
    writeJsonFile(join(where.root, '.mcp.json'), {
      mcpServers: {
        boxed: {
          command: process.execPath,
          args: [server, 'garbage'],
          env: { HOSTILE_PID_FILE: `${where.outside}/mcp-pid` },
        },
      },
    });
    writeJsonFile(join(where.userHome, '.claude', 'settings.json'), {
      sandbox: { enabled: true },
      enableAllProjectMcpServers: true,
      hooks: { PreToolUse: [{ matcher: 'Bash', ...hook('user-hook') }] },
    });
    const trust = await runMca(['trust'], { cwd: where.root, env: { MCA_HOME: where.home, HOME: where.userHome } });
    expect(trust.code, trust.stderr).toBe(0);
    const result = await run(where, [act('go', 'Bash', { command: 'echo hi' }), finish('done', 'done')]);
    expect(result.code, result.stderr).toBe(0);
    // The project's hook ran (it wrote inside the project) but could not write outside it.
    expect(existsSync(join(where.root, 'project-hook-inside'))).toBe(true);
    expect(existsSync(join(where.outside, 'project-hook-outside'))).toBe(false);
    // The user's own hook is not boxed.
    expect(existsSync(join(where.outside, 'user-hook-outside'))).toBe(true);
    // The project's MCP server started in the box: its write outside the project failed.
    expect(existsSync(join(where.outside, 'mcp-pid'))).toBe(false);
  });

  it('dangerouslyDisableSandbox is asked (so -p refuses it), and refused outright without allowUnsandboxedCommands', async () => {
    const where = setup({ enabled: true });
    await run(where, [
      act('out', 'Bash', { command: `echo x > ${where.outside}/out.txt`, dangerouslyDisableSandbox: true }),
      finish('done', 'done'),
    ]);
    expect(observationAfter(0)).toContain('PERMISSION_DENIED');
    const strict = setup({ enabled: true, allowUnsandboxedCommands: false });
    await server?.close();
    await run(
      strict,
      [
        act('out', 'Bash', { command: `echo x > ${strict.outside}/out.txt`, dangerouslyDisableSandbox: true }),
        finish('d', 'd'),
      ],
      ['--permission-mode', 'bypassPermissions'],
    );
    expect(observationAfter(0)).toContain('sandbox.allowUnsandboxedCommands is false');
    expect(existsSync(join(strict.outside, 'out.txt'))).toBe(false);
  });

  it('an untrusted project may turn the box on but not widen it: its allowed domains are ignored and commands are asked', async () => {
    const port = await startTarget();
    const where = setup(undefined, {
      '.claude/settings.json': JSON.stringify({
        sandbox: { enabled: true, autoAllowBashIfSandboxed: true, network: { allowedDomains: ['localhost'] } },
      }),
    });
    const result = await run(
      where,
      [act('listed?', 'Bash', { command: `curl -sS --max-time 10 http://localhost:${port}/` }), finish('d', 'd')],
      ['--allowedTools', 'Bash'],
    );
    expect(result.stderr).toContain('sandbox');
    const told = observationAfter(0);
    expect(told).not.toContain('hello from the listed host');
    expect(told).toContain(`network access to localhost:${port}`);
    await server?.close();
    await run(where, [act('write', 'Bash', { command: 'echo hi > inside.txt' }), finish('d', 'd')]);
    expect(observationAfter(0)).toContain('PERMISSION_DENIED');
  });
});

// Needs no bubblewrap: it takes it away.
describe('Bash where the sandbox cannot start', () => {
  it('without bubblewrap: one line at start, and Bash is asked (refused in -p), never run unboxed unasked', async () => {
    const where = setup({ enabled: true });
    const bin = join(dirname(where.root), 'bin');
    mkdirSync(bin);
    for (const program of [process.execPath, '/bin/bash', '/bin/sh'])
      symlinkSync(program, join(bin, basename(program)));
    server = await startFakeAnthropic([act('write', 'Bash', { command: 'echo hi > inside.txt' }), finish('d', 'd')]);
    const result = await runMca(['-p', 'go'], {
      cwd: where.root,
      env: {
        PATH: bin,
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: server.url,
        MCA_HOME: where.home,
        HOME: where.userHome,
        MCA_TOOL_PROTOCOL: 'text',
      },
      timeoutMs: 60_000,
    });
    expect(result.stderr.match(/sandbox unavailable: bubblewrap \(bwrap\) is not installed/g)).toHaveLength(1);
    expect(observationAfter(0)).toContain('PERMISSION_DENIED');
    expect(existsSync(join(where.root, 'inside.txt'))).toBe(false);
  });
});

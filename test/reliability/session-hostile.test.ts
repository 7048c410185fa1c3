/**
 * Sessions survive anything, through the built binary: two live `mca -c` on one session, damaged files
 * (a corrupt middle line of several kinds, a torn UTF-8 tail), two projects whose paths differ only in
 * punctuation, SIGTERM/SIGHUP with a running command, kill -9 during a model call and during a Write, and the
 * file-system failures a user can meet (a full disk, an unwritable or read-only or relative MCA_HOME).
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CRASHED_ROUND_TEXT } from '../../src/store/salvage-history.js';
import { SessionStore } from '../../src/store/session-store.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import {
  act,
  API_KEY,
  BIN,
  checkSessions,
  collect,
  finish,
  lastErrorLine,
  makeSandbox,
  processRunning,
  runMca,
  spawnMca,
  type RunResult,
  type Sandbox,
} from './harness.js';
import { ResultLog } from './results.js';
import { waitUntil } from '../e2e/support/tmux.js';

const log = new ResultLog('session-hostile');
const order: string[] = [];
const BYPASS = ['--permission-mode', 'bypassPermissions'];

/** The error line as RELIABILITY.md shows it: temp paths, the project's directory key and ids generalised. */
function shownLine(result: RunResult, sandbox: Sandbox): string {
  return lastErrorLine(result.stderr)
    .replace(sandbox.home, '$MCA_HOME')
    .replace(/projects\/[^/ ]+\/[0-9a-f-]{36}\./, 'projects/<dir>/<id>.')
    .slice(5);
}

function mcaLines(result: RunResult): string[] {
  return result.stderr.split('\n').filter((line) => line.startsWith('mca: '));
}

function sessionFile(sandbox: Sandbox): string {
  const store = new SessionStore(sandbox.home, sandbox.project);
  const files = readdirSync(store.dir).filter((name) => name.endsWith('.jsonl') && name !== 'input-history.jsonl');
  if (files.length !== 1 || files[0] === undefined) throw new Error(`expected one session file, found ${files.length}`);
  return join(store.dir, files[0]);
}

function sent(server: FakeAnthropic, index = -1): string {
  return JSON.stringify(server.requests.at(index)?.body ?? {});
}

/** Three closed rounds made by the binary itself, answered "one", "two", "three". */
async function threeRounds(sandbox: Sandbox, server: FakeAnthropic): Promise<void> {
  for (const [index, word] of ['one', 'two', 'three'].entries()) {
    server.setScript([finish(word)]);
    const args = index === 0 ? ['-p', `ask ${word}`] : ['-c', '-p', `ask ${word}`];
    const result = await runMca(sandbox, args, { baseUrl: server.url });
    if (result.code !== 0) throw new Error(`setup run failed: ${result.stderr}`);
  }
}

/** Copies the built package (dist, prompts, package.json) to `dir`, readable by every user; returns its binary. */
function readableCopyOfPackage(dir: string): string {
  for (const part of ['dist', 'prompts', 'package.json']) cpSync(resolve(part), join(dir, part), { recursive: true });
  spawnSync('chmod', ['-R', 'a+rX', dir]);
  return join(dir, 'dist', 'cli', 'mca.cjs');
}

function scenario(
  fault: string,
  run: (sandbox: Sandbox, server: FakeAnthropic) => Promise<string>,
  timeout = 90_000,
): void {
  order.push(fault);
  it(fault, { timeout }, async () => {
    const sandbox = await makeSandbox('mca-sess');
    const server = await startFakeAnthropic([]);
    try {
      await log.track('session', fault, () => run(sandbox, server));
    } finally {
      await server.close();
      await sandbox.cleanup();
    }
  });
}

describe.concurrent('sessions survive anything', () => {
  afterAll(() => log.write(order));

  scenario('two live `mca -c` on one session', async (sandbox, server) => {
    await threeRounds(sandbox, server);
    server.setScript([{ hang: true }]);
    const first = collect(spawnMca(sandbox, ['-c', '-p', 'long task'], { baseUrl: server.url }), 30_000);
    await waitUntil(() => server.requests.length === 4, 'the first run to call the model');
    const second = await runMca(sandbox, ['-c', '-p', 'meanwhile'], { baseUrl: server.url });
    expect(second.code).toBe(2);
    expect(mcaLines(second)).toEqual([
      `mca: session ${sessionFile(sandbox).split('/').at(-1)?.replace('.jsonl', '')} is in use by another mca (pid ${first.child.pid}); wait for it to end, or start a new session`,
    ]);
    first.child.kill('SIGTERM');
    const ended = await first.done;
    expect(ended.code).toBe(143);
    server.setScript([finish('four')]);
    const after = await runMca(sandbox, ['-c', '-p', 'ask four'], { baseUrl: server.url });
    expect(after.code, after.stderr).toBe(0);
    expect(mcaLines(after)).toEqual([]);
    const [check] = await checkSessions(sandbox);
    expect(check?.problems).toEqual([]);
    expect(sent(server)).toMatch(/ask one.*ask two.*ask three.*long task.*ask four/s);
    return 'the second exits 2 with one line naming the owner pid; no interleaving; the session loads cleanly';
  });

  const damages: Array<[string, (lines: string[]) => string[]]> = [
    [
      'a flipped byte in a middle line',
      (lines) => lines.map((line, i) => (i === 4 ? line.replace('"role"', '"r\u00f6le"').replace('{', '}') : line)),
    ],
    ['a duplicated middle line', (lines) => [...lines.slice(0, 5), lines[4] ?? '', ...lines.slice(5)]],
    ['a middle line cut in half', (lines) => lines.map((line, i) => (i === 4 ? line.slice(0, line.length / 2) : line))],
    ['a line of NUL bytes in the middle', (lines) => [...lines.slice(0, 3), '\u0000'.repeat(4096), ...lines.slice(3)]],
  ];
  for (const [name, damage] of damages) {
    scenario(`${name} of the session file`, async (sandbox, server) => {
      await threeRounds(sandbox, server);
      const file = sessionFile(sandbox);
      writeFileSync(file, damage(readFileSync(file, 'utf8').split('\n')).join('\n'));
      server.setScript([finish('four')]);
      const result = await runMca(sandbox, ['-c', '-p', 'ask four'], { baseUrl: server.url });
      expect(result.code, result.stderr).toBe(0);
      const warnings = mcaLines(result);
      expect(warnings.length).toBeLessThanOrEqual(1);
      for (const ask of ['ask two', 'ask three', 'ask four']) expect(sent(server)).toContain(ask);
      // The repair was written back: the next run loads without a word.
      server.setScript([finish('five')]);
      const next = await runMca(sandbox, ['-c', '-p', 'ask five'], { baseUrl: server.url });
      expect(next.code, next.stderr).toBe(0);
      expect(mcaLines(next)).toEqual([]);
      return `-c continues; ${warnings[0] ? warnings[0].replace(/^mca: [0-9a-f-]+\.jsonl: /, '') : 'no warning'}`;
    });
  }

  scenario('a torn non-UTF-8 tail (a kill in the middle of a multi-byte character)', async (sandbox, server) => {
    await threeRounds(sandbox, server);
    const file = sessionFile(sandbox);
    appendFileSync(
      file,
      Buffer.concat([Buffer.from('{"type":"message","message":{"role":"user","content":"caf'), Buffer.from([0xc3])]),
    );
    server.setScript([finish('four')]);
    const result = await runMca(sandbox, ['-c', '-p', 'ask four ✓'], { baseUrl: server.url });
    expect(result.code, result.stderr).toBe(0);
    const bytes = readFileSync(file);
    expect(isUtf8(bytes)).toBe(true);
    expect(bytes.toString('utf8').endsWith('\n')).toBe(true);
    expect(sent(server)).toMatch(/ask one.*ask two.*ask three.*ask four ✓/s);
    const [check] = await checkSessions(sandbox);
    expect(check?.problems).toEqual([]);
    return 'cut at the byte where the last whole line ends; every round kept, the file valid UTF-8';
  });

  scenario('two projects whose paths differ only in punctuation (my-app, my_app)', async (sandbox, server) => {
    const apps = ['my-app', 'my_app', 'my.app'].map((name) => ({ ...sandbox, project: join(sandbox.project, name) }));
    for (const app of apps) mkdirSync(app.project);
    server.setScript([finish('first')]);
    expect((await runMca(apps[0] as Sandbox, ['-p', 'secret plan of my-app'], { baseUrl: server.url })).code).toBe(0);
    for (const other of apps.slice(1)) {
      server.setScript([finish('other')]);
      const result = await runMca(other, ['-c', '-p', 'hello'], { baseUrl: server.url });
      expect(result.code, result.stderr).toBe(0);
      expect(mcaLines(result)).toEqual(['mca: no earlier session in this directory; starting a new one']);
      expect(sent(server)).not.toContain('secret plan');
    }
    server.setScript([finish('again')]);
    await runMca(apps[0] as Sandbox, ['-c', '-p', 'continue'], { baseUrl: server.url });
    expect(sent(server)).toContain('secret plan of my-app');
    return 'each path has its own session directory; -c never continues the other project';
  });

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    scenario(`${signal} while Bash runs \`sleep 300\``, async (sandbox, server) => {
      server.setScript([act('Bash', { command: 'echo $$ > shell.pid; sleep 300; echo never' }), finish('unreachable')]);
      const run = collect(spawnMca(sandbox, [...BYPASS, '-p', 'wait'], { baseUrl: server.url }), 30_000);
      const pidFile = join(sandbox.project, 'shell.pid');
      await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the shell to start');
      const shell = Number(readFileSync(pidFile, 'utf8'));
      expect(processRunning(shell)).toBe(true);
      run.child.kill(signal);
      const ended = await run.done;
      expect(ended.code).toBe(code);
      expect(lastErrorLine(ended.stderr)).toBe(`mca: stopped by ${signal}; the turn was closed and the session saved`);
      await waitUntil(() => !processRunning(shell), 'the shell to be gone', 5_000);
      // pgrep also lists zombies (orphans an init never reaps); only a live member would be a leak.
      const members = spawnSync('pgrep', ['-g', String(shell)], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
      expect(members.map(Number).filter(processRunning)).toEqual([]);
      const [check] = await checkSessions(sandbox);
      expect(check?.problems).toEqual([]);
      expect(check?.messages.at(-1)?.metadata.roundEnd).toBe('interrupted');
      server.setScript([finish('back')]);
      const next = await runMca(sandbox, ['-c', '-p', 'again'], { baseUrl: server.url });
      expect(next.code, next.stderr).toBe(0);
      expect(mcaLines(next)).toEqual([]);
      return `exit ${code}; the Bash process group is gone, the round closed, -c continues without a warning`;
    });
  }

  scenario('kill -9 during a model call, then -c', async (sandbox, server) => {
    await threeRounds(sandbox, server);
    server.setScript([{ hang: 'text', text: 'half an answer' }]);
    const run = collect(spawnMca(sandbox, ['-c', '-p', 'doomed'], { baseUrl: server.url }), 30_000);
    await waitUntil(() => server.requests.length === 4, 'the model call');
    run.child.kill('SIGKILL');
    await run.done;
    server.setScript([finish('recovered')]);
    const next = await runMca(sandbox, ['-c', '-p', 'after the crash'], { baseUrl: server.url });
    expect(next.code, next.stderr).toBe(0);
    expect(mcaLines(next)).toEqual([
      expect.stringMatching(/round 4 ended when mca stopped unexpectedly; it is closed as crashed$/),
    ]);
    expect(sent(server)).toContain(JSON.stringify(CRASHED_ROUND_TEXT).slice(1, -1));
    expect(sent(server)).not.toContain('interrupted by the user');
    expect(sent(server)).toMatch(/ask three.*doomed.*after the crash/s);
    return 'the open round is closed as crashed (not "interrupted by the user"); one line says so; nothing else lost';
  });

  scenario(
    'kill -9 during a Write leaves a temp file; the next start removes it',
    async (sandbox, server) => {
      // A real kill during a 40 MB Write, as often as it takes to catch the temp file (at most 8 tries).
      const content = 'x'.repeat(40 * 1024 * 1024);
      let caught = 0;
      for (let attempt = 0; attempt < 8 && caught === 0; attempt += 1) {
        server.setScript([act('Write', { path: 'deep/big.txt', content }), finish('written')]);
        const run = collect(spawnMca(sandbox, [...BYPASS, '-p', `write ${attempt}`], { baseUrl: server.url }), 60_000);
        const dir = join(sandbox.project, 'deep');
        await waitUntil(
          () =>
            run.child.exitCode !== null || (existsSync(dir) && readdirSync(dir).some((name) => name.includes('.mca-'))),
          'the temp file or the end of the run',
          60_000,
        );
        if (run.child.exitCode === null) {
          run.child.kill('SIGKILL');
          caught += 1;
        }
        await run.done;
      }
      // Also one planted, with its journal line, as a writer that is surely dead (pid 2^22 - 1 is above any default
      // pid_max in use) leaves them.
      mkdirSync(join(sandbox.project, 'deep', 'er'), { recursive: true });
      const planted = join(sandbox.project, 'deep', 'er', '.notes.md.mca-4194303-a1b2c3d4e5f6.tmp');
      writeFileSync(planted, 'half');
      mkdirSync(join(sandbox.home, 'temp-journal'), { recursive: true });
      writeFileSync(join(sandbox.home, 'temp-journal', '4194303-0a1b.txt'), `${planted}\n`);
      server.setScript([finish('clean')]);
      const next = await runMca(sandbox, ['-p', 'hello'], { baseUrl: server.url });
      expect(next.code, next.stderr).toBe(0);
      const left = spawnSync('find', [sandbox.project, '-name', '*.mca-*.tmp'], { encoding: 'utf8' }).stdout.trim();
      expect(left).toBe('');
      // Every journal is gone: the dead writers' swept, each finished run's removed at its exit.
      expect(readdirSync(join(sandbox.home, 'temp-journal'))).toEqual([]);
      const big = join(sandbox.project, 'deep', 'big.txt');
      if (existsSync(big)) expect(readFileSync(big, 'utf8')).toBe(content);
      log.fact('kills that caught a Write mid-temp-file', caught);
      return `no mca temp file left after the next start (${caught} real kill(s) mid-Write + 1 planted with its journal line); no journal left; big.txt absent or whole`;
    },
    240_000,
  );

  const unshareWorks =
    spawnSync('unshare', ['-rm', 'true'], { encoding: 'utf8' }).status === 0 ||
    spawnSync('unshare', ['-m', 'true'], { encoding: 'utf8' }).status === 0;

  /** Runs mca with MCA_HOME on a private tmpfs (a mount namespace: nothing outside sees it). */
  function withTmpfsHome(
    sandbox: Sandbox,
    server: FakeAnthropic,
    mountOptions: string,
    prepare: string,
    args = '-p hi',
  ): Promise<RunResult> {
    const script = [
      `mount -t tmpfs -o ${mountOptions} tmpfs "$MCA_HOME"`,
      prepare,
      `exec "${process.execPath}" "${BIN}" ${args} --cwd "${sandbox.project}"`,
    ].join(' && ');
    const unshare = spawnSync('unshare', ['-rm', 'true']).status === 0 ? ['-rm'] : ['-m'];
    // Asynchronous: the fake API lives in this process and must keep answering while mca runs.
    const child = spawn('unshare', [...unshare, 'sh', '-c', script], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ANTHROPIC_API_KEY: API_KEY,
        ANTHROPIC_BASE_URL: server.url,
        MCA_HOME: sandbox.home,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return collect(child, 30_000).done;
  }

  scenario('a full disk under MCA_HOME (ENOSPC)', async (sandbox, server) => {
    expect(unshareWorks, 'unshare (mount namespace) is needed to give MCA_HOME a full tmpfs').toBe(true);
    server.setScript([finish('never')]);
    const result = await withTmpfsHome(
      sandbox,
      server,
      'size=16k',
      'mkdir -p "$MCA_HOME/projects" && (cat /dev/zero > "$MCA_HOME/filler" 2>/dev/null; true)',
    );
    expect(result.code).not.toBe(0);
    expect(mcaLines(result)).toHaveLength(1);
    expect(lastErrorLine(result.stderr)).toMatch(
      /^mca: cannot (create|write|open) .*session.* no space left on the device \(ENOSPC\)$/,
    );
    return `exit ${result.code}: ${shownLine(result, sandbox)}`;
  });

  scenario('the disk under MCA_HOME fills up during a turn (ENOSPC)', async (sandbox, server) => {
    expect(unshareWorks, 'unshare (mount namespace) is needed to give MCA_HOME a small tmpfs').toBe(true);
    // tmpfs gives each file whole 4 KB pages: 8 KB free holds the lock and the session's first page, not a step
    // whose action alone is 6 KB.
    server.setScript([act('Bash', { command: `echo ${'x'.repeat(6000)} > /dev/null` }), finish('never')]);
    const result = await withTmpfsHome(
      sandbox,
      server,
      'size=12k',
      'head -c 4096 /dev/zero > "$MCA_HOME/filler"',
      '--permission-mode bypassPermissions -p hi',
    );
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(mcaLines(result)).toEqual([
      expect.stringMatching(
        /^mca: The turn failed: cannot write session file .*\.jsonl: no space left on the device \(ENOSPC\)$/,
      ),
    ]);
    return `exit 1 after the model call: ${shownLine(result, sandbox)}`;
  });

  scenario('a read-only MCA_HOME (EROFS)', async (sandbox, server) => {
    expect(unshareWorks, 'unshare (mount namespace) is needed for a read-only MCA_HOME').toBe(true);
    const result = await withTmpfsHome(sandbox, server, 'ro,size=64k', 'true');
    expect(result.code).not.toBe(0);
    expect(mcaLines(result)).toHaveLength(1);
    expect(lastErrorLine(result.stderr)).toMatch(
      /^mca: cannot create the session directory .* read-only file system \(EROFS\)$/,
    );
    return `exit ${result.code}: ${shownLine(result, sandbox)}`;
  });

  scenario('an MCA_HOME the user cannot write (EACCES)', async (sandbox, server) => {
    const { chmodSync } = await import('node:fs');
    chmodSync(sandbox.home, 0o555);
    chmodSync(join(sandbox.project, '..'), 0o755);
    server.setScript([finish('never')]);
    // root ignores file modes, so as root the run drops to nobody (the mode is then what decides). nobody may not
    // be able to read the checkout (a clone under a 0700 home), so it runs a world-readable copy of the package.
    const asRoot = process.getuid?.() === 0;
    const asNobody = asRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const bin = asRoot ? readableCopyOfPackage(join(sandbox.project, '..', 'pkg')) : BIN;
    const command = [...asNobody, process.execPath, bin, '-p', 'hi', '--cwd', sandbox.project];
    const result = spawnSync(command[0] as string, command.slice(1), {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: '/nonexistent',
        ANTHROPIC_API_KEY: API_KEY,
        ANTHROPIC_BASE_URL: server.url,
        MCA_HOME: sandbox.home,
      },
      timeout: 30_000,
    });
    chmodSync(sandbox.home, 0o755);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('mca: '))).toHaveLength(1);
    expect(result.stderr).toMatch(/^mca: cannot create the session directory .* permission denied \(EACCES\)$/m);
    expect(result.stderr).not.toContain('internal error');
    return `exit ${result.status}: one line naming the directory and "permission denied (EACCES)"`;
  });

  scenario('a relative MCA_HOME', async (sandbox, server) => {
    const result = await runMca(sandbox, ['-p', 'hi'], { baseUrl: server.url, env: { MCA_HOME: 'relative/home' } });
    expect(result.code).toBe(2);
    expect(mcaLines(result)).toEqual(['mca: MCA_HOME must be an absolute path, got "relative/home"']);
    return 'exit 2: MCA_HOME must be an absolute path';
  });
});

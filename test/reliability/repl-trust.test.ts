/**
 * The REPL side of the trust boundary and of session choice, in a real terminal (tmux) with the built binary:
 * a Write of `.mca/config.json` is asked even in acceptEdits (and a "no" leaves it unwritten), the input history
 * is 0600 and redacted, SIGTERM ends a running command and exits 143, and after a REPL was opened and closed
 * without a turn `mca -c` still continues the session that has rounds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/store/session-store.js';
import { TmuxSession, tmuxInfo, waitUntil } from '../e2e/support/tmux.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runsWith } from '../helpers/optional-tools.js';
import { act, API_KEY, BIN, finish, makeSandbox, processRunning, runMca, type Sandbox } from './harness.js';
import { ResultLog } from './results.js';

const tmux = tmuxInfo();
const runHere = runsWith('tmux', tmux.available, 'the REPL trust and session tests');
const log = new ResultLog('repl-trust');
const order: string[] = [];
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

async function launcher(sandbox: Sandbox, server: FakeAnthropic, args: string): Promise<string> {
  const path = join(sandbox.project, '..', 'mca.sh');
  const env = [
    `ANTHROPIC_API_KEY=${API_KEY}`,
    `ANTHROPIC_BASE_URL=${quote(server.url)}`,
    `MCA_HOME=${quote(sandbox.home)}`,
    `HOME=${quote(join(sandbox.project, '..'))}`,
  ].join(' ');
  await writeFile(
    path,
    `#!/bin/sh\ncd ${quote(sandbox.project)} || exit 97\nexec env -u CI ${env} ${quote(process.execPath)} ${quote(BIN)} ${args}\n`,
  );
  await chmod(path, 0o755);
  return path;
}

function startShell(sandbox: Sandbox): TmuxSession {
  const term = new TmuxSession();
  term.start({
    command: `env -u CI PS1='t$ ' HISTFILE=/dev/null bash --norc --noprofile`,
    columns: 100,
    rows: 40,
    cwd: sandbox.project,
  });
  return term;
}

function scenario(fault: string, run: (sandbox: Sandbox, server: FakeAnthropic) => Promise<string>): void {
  order.push(fault);
  it(fault, { timeout: 120_000 }, async () => {
    expect(tmux.available, 'tmux is required for this test (see .ci/run)').toBe(true);
    const sandbox = await makeSandbox('mca-repl-trust');
    const server = await startFakeAnthropic([]);
    try {
      await log.track('repl', fault, () => run(sandbox, server));
    } finally {
      await server.close();
      await sandbox.cleanup();
    }
  });
}

describe.runIf(runHere)('the REPL keeps the trust boundary and the sessions', () => {
  afterAll(() => log.write(order));

  scenario('acceptEdits: a Write of .mca/config.json is asked; "no" leaves it unwritten', async (sandbox, server) => {
    server.setScript([
      act('Write', { path: 'notes.txt', content: 'ordinary edit\n' }),
      act('Write', { path: '.mca/config.json', content: '{"permissionMode":"bypassPermissions"}' }),
      finish('tried'),
    ]);
    const term = startShell(sandbox);
    try {
      await term.waitFor(/t\$$/, { what: 'the shell prompt' });
      term.type(`${quote(await launcher(sandbox, server, '--permission-mode acceptEdits'))}; echo "[exit $?]"`);
      term.keys('Enter');
      await term.waitFor('Ask anything', { what: 'the input box' });
      term.type(`set it up, my key is ${API_KEY}`);
      term.keys('Enter');
      const prompt = await term.waitFor(/Allow Write[^\n]*\(\.mca\/config\.json\)\?/, {
        what: 'the control-file prompt',
      });
      // The ordinary Write went through without a question (acceptEdits), the control file did not.
      expect(prompt).not.toContain('Allow Write(notes.txt)?');
      expect(readFileSync(join(sandbox.project, 'notes.txt'), 'utf8')).toBe('ordinary edit\n');
      // Esc denies the tool and ends the turn (issue 16): the model is not called again, the file stays unwritten.
      term.keys('Escape');
      await term.waitFor('Ask anything', { what: 'the input box after the denial' });
      expect(server.requests.length).toBe(2);
      expect(existsSync(join(sandbox.project, '.mca', 'config.json'))).toBe(false);
      term.keys('C-d');
      await term.waitFor(/\[exit 0\]/, { what: 'the exit' });
      const store = new SessionStore(sandbox.home, sandbox.project);
      const history = join(store.dir, 'input-history.jsonl');
      await waitUntil(() => existsSync(history), 'the input history file');
      expect(statSync(history).mode & 0o777).toBe(0o600);
      expect(readFileSync(history, 'utf8')).not.toContain(API_KEY);
      expect(readFileSync(history, 'utf8')).toContain('[REDACTED]');
      return 'the control-file Write was asked (the ordinary one was not); Esc denied it; input history 0600 with the pasted key redacted';
    } finally {
      term.kill();
    }
  });

  scenario('SIGTERM to the REPL while Bash runs `sleep 300`', async (sandbox, server) => {
    server.setScript([act('Bash', { command: 'echo $$ > shell.pid; sleep 300' }), finish('never')]);
    const term = startShell(sandbox);
    try {
      await term.waitFor(/t\$$/, { what: 'the shell prompt' });
      term.type(`${quote(await launcher(sandbox, server, '--permission-mode bypassPermissions'))}; echo "[exit $?]"`);
      term.keys('Enter');
      await term.waitFor('Ask anything', { what: 'the input box' });
      // The launcher execs node, so mca is the pane shell's only child.
      const children = spawnSync('pgrep', ['-P', String(term.panePid())], { encoding: 'utf8' }).stdout.trim();
      const pid = Number(children.split('\n')[0]);
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain(BIN);
      term.type('wait a while');
      term.keys('Enter');
      const pidFile = join(sandbox.project, 'shell.pid');
      await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the shell to start');
      const shell = Number(readFileSync(pidFile, 'utf8'));
      process.kill(pid, 'SIGTERM');
      await term.waitFor(/\[exit 143\]/, { what: 'exit 143' });
      await waitUntil(() => !processRunning(shell), 'the Bash process to be gone');
      server.setScript([finish('back')]);
      const next = await runMca(sandbox, ['-c', '-p', 'again'], { baseUrl: server.url });
      expect(next.code, next.stderr).toBe(0);
      expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('wait a while');
      return 'exit 143, the Bash process gone, the session continues with -c (the open round closed on load)';
    } finally {
      term.kill();
    }
  });

  scenario('-c after a REPL was opened and closed without a turn', async (sandbox, server) => {
    server.setScript([finish('first answer')]);
    expect((await runMca(sandbox, ['-p', 'the first question'], { baseUrl: server.url })).code).toBe(0);
    const term = startShell(sandbox);
    try {
      await term.waitFor(/t\$$/, { what: 'the shell prompt' });
      term.type(`${quote(await launcher(sandbox, server, ''))}; echo "[exit $?]"`);
      term.keys('Enter');
      await term.waitFor('Ask anything', { what: 'the input box' });
      term.keys('C-d');
      await term.waitFor(/\[exit 0\]/, { what: 'the exit' });
    } finally {
      term.kill();
    }
    const store = new SessionStore(sandbox.home, sandbox.project);
    expect(readdirSync(store.dir).filter((name) => /^[0-9a-f-]{36}\.jsonl$/.test(name))).toHaveLength(2);
    server.setScript([finish('second answer')]);
    const next = await runMca(sandbox, ['-c', '-p', 'the follow-up'], { baseUrl: server.url });
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('the first question');
    return 'the empty REPL session is skipped; -c continues the session with rounds';
  });
});

/**
 * A session write failing inside a turn leaves the REPL usable (issue 10, deliverable 4), through the built binary
 * in tmux: MCA_HOME is a small tmpfs that a ballast file nearly fills, so the first turn's session writes fail with
 * ENOSPC. The REPL shows one line naming the file and the cause and keeps its input box; once the ballast is gone
 * the next turn in the same session answers. Mounting needs root (CAP_SYS_ADMIN); elsewhere the test skips with a
 * printed reason, and test/loop/turn-failures.test.ts covers the same path through the controller the REPL drives.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runsWith } from '../helpers/optional-tools.js';
import { act, agentScript, finish } from './support/agent-script.js';
import { TmuxSession, tmuxInfo } from './support/tmux.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const binary = join(repo, 'dist/cli/mca.cjs');
/** Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN); probed once with a throwaway mount. */
function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'mca-mount-probe-'));
  try {
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', probe]).status !== 0) return false;
    spawnSync('umount', [probe]);
    return true;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const mountable = canMountTmpfs();
if (!mountable) console.warn('skipping the tmpfs ENOSPC REPL test: mounting a tmpfs needs root (CAP_SYS_ADMIN)');
const runHere = mountable && runsWith('tmux', tmuxInfo().available, 'the tmux REPL write-failure test');
const PROMPT = 'e2e$ ';
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe.runIf(runHere)('mca REPL when the session file cannot be written', () => {
  it('shows one line with the file and the cause, and the REPL stays usable', async () => {
    const longThought = `I will list the files. ${'Reasoning at length. '.repeat(600)}`; // ≈ 13 KB, over the limit
    const script = agentScript([act(longThought, 'LS', { path: '.' }), finish('Fine.', 'The next turn works.')], {
      text: 'unused',
    });
    const server = await startFakeAnthropic([script.step], { loop: true });
    cleanups.push(() => server.close());
    const root = await realpath(await mkdtemp(join(tmpdir(), 'mca-repl-efbig-')));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const project = join(root, 'project');
    await mkdir(project);
    const home = join(root, 'home');
    mkdirSync(home);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', home]).status).toBe(0);
    cleanups.push(() => void spawnSync('umount', ['-l', home]));
    // Leave about 12 KB: enough to start and open the session, not for the first turn's long reply.
    const ballast = join(home, 'ballast');
    await writeFile(ballast, Buffer.alloc(52 * 1024));
    const launcher = join(root, 'mca.sh');
    const env = [
      'ANTHROPIC_API_KEY=sk-test',
      `ANTHROPIC_BASE_URL=${quote(server.url)}`,
      `MCA_HOME=${quote(home)}`,
      `HOME=${quote(root)}`,
      'MCA_PERMISSION_MODE=bypassPermissions',
    ].join(' ');
    await writeFile(
      launcher,
      `#!/bin/sh\ncd ${quote(project)} || exit 97\nexec env -u CI ${env} ${quote(process.execPath)} ${quote(binary)}\n`,
    );
    await chmod(launcher, 0o755);

    const term = new TmuxSession();
    cleanups.push(() => term.kill());
    term.start({
      command: `env -u CI PS1=${quote(PROMPT)} HISTFILE=/dev/null bash --norc --noprofile`,
      columns: 100,
      rows: 40,
      cwd: root,
    });
    await term.waitFor((text) => text.endsWith(PROMPT.trimEnd()), { what: 'the shell prompt' });
    term.type(`${quote(launcher)}; echo "[mca exited $?]"`);
    term.keys('Enter');
    await term.waitFor('Ask anything', { what: 'the REPL input box' });

    term.type('list the files');
    term.keys('Enter');
    const failed = await term.waitFor(
      /The turn failed: cannot write session file .*no space left on the device \(ENOSPC\)/s,
      {
        what: 'the error line',
      },
    );
    expect(failed).not.toMatch(/\n\s+at |internal error/);
    await term.waitFor('Ask anything', { what: 'the input box after the failed turn' });

    rmSync(ballast); // the user frees some space; the same session goes on
    term.type('and now?');
    term.keys('Enter');
    const answered = await term.waitFor('The next turn works.', { what: 'the answer of the next turn' });
    expect(answered).not.toMatch(/still open/);
    expect(script.agentRequests).toHaveLength(2);

    term.type('/exit');
    term.keys('Enter');
    await term.waitFor(/\[mca exited 0\]/, { what: 'mca exiting cleanly' });
  });
});

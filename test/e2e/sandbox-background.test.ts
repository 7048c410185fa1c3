/**
 * Background commands in the sandbox (issues 37 and 39), through the built binary in `-p` with real bubblewrap: a
 * `run_in_background` command while the box is on runs in the box (a write in the project works, one outside it
 * fails) and returns at once; TaskOutput reads it; TaskStop ends another; one left running is gone after mca
 * exits, with everything it started in the box. On the old tree the call was refused ("not available while the
 * sandbox is on"). Without bubblewrap or socat the file skips with a printed reason.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  startFakeAnthropic,
  userText,
  type FakeAnthropic,
  type FakePlainStep,
  type FakeRequestBody,
  type FakeStep,
} from '../helpers/fake-anthropic-server.js';
import { runsWith, sandboxWorks } from '../helpers/optional-tools.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject, writeJsonFile } from '../helpers/temp-project.js';
import { listProcesses } from './support/processes.js';

const RUNS = runsWith('bwrap and socat', sandboxWorks(), 'the sandboxed background-task e2e test');

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Processes whose command line carries `marker` (in the box or not), waited for (bounded) to be gone. */
async function leftWith(marker: string): Promise<string[]> {
  for (let tries = 0; ; tries += 1) {
    const left = listProcesses()
      .filter((info) => info.pid !== process.pid && info.args.join(' ').includes(marker))
      .map((info) => info.args.join(' '));
    if (left.length === 0 || tries >= 200) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(RUNS)('Bash run_in_background in the sandbox (-p, real bubblewrap)', () => {
  it('runs in the box and returns at once; TaskOutput reads it, TaskStop stops one, nothing is left after exit', async () => {
    const { root, home } = tempProject('mca-box-bg-', { 'README.md': 'x\n' });
    const userHome = join(dirname(root), 'userhome');
    writeJsonFile(join(userHome, '.claude', 'settings.json'), { sandbox: { enabled: true } });
    // Outside the project and outside /tmp (the box has its own /tmp).
    const outside = mkdtempSync('/var/tmp/mca-box-bg-outside-');
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }));
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'keep.txt'), 'k\n');
    const marker = `mca-box-bg-${process.pid}-${Date.now() % 100000}`;
    const background =
      `echo in-box; echo x > inside.txt; echo y > ${outside}/escaped.txt || echo write-outside-failed; ` +
      `until [ -f go ]; do sleep 0.05; done; echo bg-done; true ${marker}`;
    const seen: FakeRequestBody[] = [];
    const reply =
      (step: FakePlainStep): FakeStep =>
      (body) => {
        seen.push(body);
        return step;
      };
    const call = (name: string, input: Record<string, unknown>): FakePlainStep => ({
      text: name,
      calls: [{ name, input }],
    });
    server = await startFakeAnthropic([
      reply(call('Bash', { command: background, run_in_background: true })),
      reply(call('Bash', { command: 'touch go' })),
      reply(call('TaskOutput', { task_id: 'bash_1', block: true, timeout: 60000 })),
      reply(call('Bash', { command: `sleep 293 & sleep 293; true ${marker}-stopped`, run_in_background: true })),
      reply(call('TaskStop', { task_id: 'bash_2' })),
      reply(call('Bash', { command: `sleep 294 & sleep 294; true ${marker}-left`, run_in_background: true })),
      reply({ text: 'All done.' }),
    ]);
    const run = await runMca(['-p', 'go'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-box-bg', ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: userHome },
      timeoutMs: 90_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('All done.');
    expect(seen).toHaveLength(7);

    // Started (not refused) and back at once; it ran in the box: in the project yes, outside no.
    expect(userText(seen[1] as FakeRequestBody)).toContain('Command running in background with ID: bash_1');
    const read = userText(seen[3] as FakeRequestBody);
    expect(read).toContain('Task bash_1: completed (exit code 0)');
    expect(read).toContain('in-box');
    expect(read).toContain('write-outside-failed');
    expect(read).toContain('bg-done');
    expect(readFileSync(join(root, 'inside.txt'), 'utf8')).toBe('x\n');
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);

    // The stopped one and the one left running are gone, with the sleeps they started in the box.
    expect(userText(seen[5] as FakeRequestBody)).toContain('Successfully stopped task: bash_2');
    expect(await leftWith(`${marker}-stopped`)).toEqual([]);
    expect(await leftWith(`${marker}-left`)).toEqual([]);
    expect(await leftWith('sleep 293')).toEqual([]);
    expect(await leftWith('sleep 294')).toEqual([]);
  }, 120_000);
});

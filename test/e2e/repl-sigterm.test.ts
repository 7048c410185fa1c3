/**
 * SIGTERM to the REPL in the middle of a turn, through the built binary in tmux: the running command ends and the
 * open round is closed in the session file at once (as interrupted) before mca exits, not left for the next
 * load to repair.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { act } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';
import { waitUntil } from './support/tmux.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

function sessionRecords(home: string): Array<{ type: string; message?: { metadata: { roundEnd?: string } } }> {
  const projects = join(home, 'projects');
  const files = readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter(
    // The session file is `<dir-key>/<session>.jsonl`; its checkpoint journal and subagent transcripts lie deeper.
    (name) => name.endsWith('.jsonl') && !name.endsWith('input-history.jsonl') && name.split('/').length === 2,
  );
  expect(files).toHaveLength(1);
  return readFileSync(join(projects, files[0] as string), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; message?: { metadata: { roundEnd?: string } } });
}

describe.runIf(runHere)('mca REPL in tmux: SIGTERM', () => {
  it('closes the open round in the session file at once, then exits', async () => {
    const { term, repl } = await harness.start([act('Wait.', 'Bash', { command: 'sleep 60' })], {
      args: ['--permission-mode', 'bypassPermissions'],
    });
    term.type('wait a minute');
    term.keys('Enter');
    await term.waitFor('Bash(sleep 60)', { what: 'the running command' });
    process.kill(term.panePid(), 'SIGTERM');
    await waitUntil(() => term.paneDead(), 'the exit');
    const messages = sessionRecords(repl.home).filter((record) => record.type === 'message');
    expect(messages.at(-1)?.message?.metadata.roundEnd).toBe('interrupted');
  }, 120_000);
});

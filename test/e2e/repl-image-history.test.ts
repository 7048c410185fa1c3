/**
 * ↑ recalls a prompt with its image, through the built binary in tmux: a prompt sent with a pasted image path
 * (`[Image #1]`) and recalled with ↑ carries the same image block again when re-sent. Images are kept for recall
 * in memory only (the history file holds text): after a restart, the recalled placeholder says the image is no
 * longer attached, and the re-sent request carries no image.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeRequestBody } from '../helpers/fake-anthropic-server.js';
import { pngBytes } from '../helpers/image-fixtures.js';
import { finish } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, tmuxTestsRun } from './support/repl-launch.js';
import type { TmuxSession } from './support/tmux.js';
import { waitUntil } from './support/tmux.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

interface Block {
  type: string;
  text?: string;
  source?: { data: string };
}

/** The blocks of the request's last user message (the prompt just sent). */
function lastUserBlocks(body: FakeRequestBody | undefined): Block[] {
  const user = (body?.messages ?? []).filter((message) => message.role === 'user').at(-1);
  if (!user) return [];
  return Array.isArray(user.content) ? (user.content as Block[]) : [{ type: 'text', text: String(user.content) }];
}

const count = (text: string, part: string): number => text.split(part).length - 1;

/** Presses ↑ once the box is idle and waits until the recalled entry shows in it. */
async function recall(term: TmuxSession, shown: string, before: number): Promise<void> {
  await term.waitFor('Ask anything', { what: 'the idle input box' });
  term.keys('Up');
  await term.waitFor((screen) => !screen.includes('Ask anything') && count(screen, shown) > before, {
    what: `the recalled ${shown}`,
  });
}

describe.runIf(runHere)('mca REPL in tmux: images in input history', () => {
  it('↑ brings a prompt back with its image; after a restart it says the image is no longer attached', async () => {
    const image = pngBytes(7, 3);
    const { url, script } = await harness.fake([
      finish('ok', 'FIRST-LOOK.'),
      finish('ok', 'SECOND-LOOK.'),
      finish('ok', 'THIRD-LOOK.'),
    ]);
    const first = await launchRepl(url);
    harness.defer(() => rm(first.root, { recursive: true, force: true }));
    harness.defer(() => first.term.kill());
    const { term } = first;
    await term.waitFor('Ask anything', { what: 'the REPL input box' });
    const folder = join(first.root, 'shots');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'box.png'), image);

    term.type(`${join(folder, 'box.png')} `);
    await term.waitFor('[Image #1]', { what: 'the pasted image placeholder' });
    term.type('describe it');
    term.keys('Enter');
    await term.waitFor('FIRST-LOOK.', { what: 'the first answer' });
    const sent = lastUserBlocks(script.agentRequests[0]);
    expect(sent.filter((block) => block.type === 'image').map((block) => block.source?.data)).toEqual([
      image.toString('base64'),
    ]);

    await recall(term, '[Image #1] describe it', count(term.screen(), '[Image #1] describe it'));
    term.keys('Enter');
    await term.waitFor('SECOND-LOOK.', { what: 'the answer to the recalled prompt' });
    await waitUntil(() => script.agentRequests.length === 2, 'the second request');
    const again = lastUserBlocks(script.agentRequests[1]);
    expect(again.filter((block) => block.type === 'image').map((block) => block.source?.data)).toEqual([
      image.toString('base64'),
    ]);
    expect(JSON.stringify(again)).toContain('[Image #1] describe it');
    first.term.kill();

    const restarted = await launchRepl(url, { reuse: { root: first.root } });
    harness.defer(() => restarted.term.kill());
    await recall(restarted.term, '[Image #1 (no longer attached)] describe it', 0);
    restarted.term.keys('Enter');
    await restarted.term.waitFor('THIRD-LOOK.', { what: 'the answer after the restart' });
    await waitUntil(() => script.agentRequests.length === 3, 'the third request');
    const after = lastUserBlocks(script.agentRequests[2]);
    expect(after.some((block) => block.type === 'image')).toBe(false);
    expect(JSON.stringify(after)).toContain('[Image #1 (no longer attached)] describe it');
  }, 120_000);
});

/**
 * Images in the REPL through the built binary in tmux: a pasted image path (as a terminal writes a dragged file,
 * backslash-escaped spaces and all) shows as `[Image #1]`, Ctrl-V takes the clipboard's image through xclip (a
 * stand-in script on PATH answering as xclip does; pngpaste on macOS) as `[Image #2]`, and the request carries both.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pngBytes } from '../helpers/image-fixtures.js';
import { finish } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';
import { waitUntil } from './support/tmux.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

interface Block {
  type: string;
  source?: { media_type: string; data: string };
}

describe.runIf(runHere)('mca REPL in tmux: images', () => {
  it('a pasted image path and a Ctrl+V clipboard image show as [Image #N] and reach the model', async () => {
    const pasted = pngBytes(12, 8);
    const clipboard = pngBytes(5, 5);
    const tools = join('/tmp', `mca-xclip-${process.pid}-${Date.now()}`);
    mkdirSync(tools, { recursive: true });
    harness.defer(() => rm(tools, { recursive: true, force: true }));
    writeFileSync(join(tools, 'clip.png'), clipboard);
    writeFileSync(
      join(tools, 'xclip'),
      `#!/bin/sh\ncase "$*" in *TARGETS*) printf 'TARGETS\\nimage/png\\n' ;; *image/png*) cat '${join(tools, 'clip.png')}' ;; *) exit 1 ;; esac\n`,
    );
    chmodSync(join(tools, 'xclip'), 0o755);
    // macOS reads the clipboard with pngpaste: the same stand-in there.
    writeFileSync(join(tools, 'pngpaste'), `#!/bin/sh\ncat '${join(tools, 'clip.png')}'\n`);
    chmodSync(join(tools, 'pngpaste'), 0o755);
    const { script, repl, term } = await harness.start([finish('ok', 'Two grey boxes.')], {
      // An empty WAYLAND_DISPLAY keeps a developer's Wayland session (and its real clipboard) out of the test.
      env: { PATH: `${tools}:${process.env.PATH ?? ''}`, DISPLAY: ':0', WAYLAND_DISPLAY: '' },
    });
    const folder = join(repl.root, 'my shots');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'shot 1.png'), pasted);

    term.type(`${join(folder, 'shot 1.png').replace(/ /g, '\\ ')} `);
    await term.waitFor('[Image #1]', { what: 'the pasted image placeholder' });
    term.keys('C-v');
    await term.waitFor('[Image #2]', { what: 'the clipboard image placeholder' });
    term.type('what are these?');
    term.keys('Enter');
    await term.waitFor('Two grey boxes.');
    await waitUntil(() => script.agentRequests.length > 0, 'the request');

    const body = script.agentRequests[0];
    const blocks = (body?.messages ?? []).flatMap((message) =>
      Array.isArray(message.content) ? (message.content as Block[]) : [],
    );
    const images = blocks.filter((block) => block.type === 'image');
    expect(images.map((block) => block.source?.data)).toEqual([
      pasted.toString('base64'),
      clipboard.toString('base64'),
    ]);
    expect(images.every((block) => block.source?.media_type === 'image/png')).toBe(true);
    expect(JSON.stringify(body?.messages)).toContain('[Image #1] [Image #2] what are these?');
  }, 90_000);
});

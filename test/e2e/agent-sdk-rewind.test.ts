/**
 * The SDK's rewindFiles() (`rewind_files` control request) over mca's checkpoint store: the uuid of a user message
 * (echoed with --replay-user-messages, as the SDK's file-checkpointing guide has programs read it) names the
 * prompt it began; a dry run reports what would change, a real one restores the files.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkOptions, userMessage } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('rewindFiles() through the SDK', () => {
  it('restores the files a prompt changed, after a dry run that reports them', async () => {
    const { root, home } = tempProject('mca-sdk-rewind-', { 'keep.txt': 'one\ntwo\n' });
    // Edit needs a prior Read in the session: the prompt's own Read is the first step.
    server = await startFakeAnthropic([
      { text: 'Reading.', calls: [{ id: 'toolu_r', name: 'Read', input: { path: 'keep.txt' } }] },
      {
        text: 'Writing.',
        calls: [
          { id: 'toolu_w', name: 'Write', input: { path: 'new.txt', content: 'alpha\nbeta\n' } },
          { id: 'toolu_e', name: 'Edit', input: { path: 'keep.txt', old_string: 'two', new_string: 'TWO\nthree' } },
        ],
      },
      { text: 'Done.' },
    ]);
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield userMessage('change the files');
      await done;
    }
    const run = query({
      prompt: prompts(),
      options: sdkOptions(
        { root, home, baseUrl: server.url },
        { permissionMode: 'acceptEdits', enableFileCheckpointing: true, extraArgs: { 'replay-user-messages': null } },
      ),
    });
    let uuid: string | undefined;
    // Read up to the result without ending the query (a `break` would close it).
    const messages = run[Symbol.asyncIterator]();
    for (let next = await messages.next(); !next.done; next = await messages.next()) {
      const message = next.value;
      if (message.type === 'user' && uuid === undefined && message.uuid) uuid = message.uuid;
      if (message.type === 'result') break;
    }
    expect(uuid).toBeDefined();
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(existsSync(join(root, 'new.txt'))).toBe(true);

    const preview = await run.rewindFiles(uuid!, { dryRun: true });
    expect(preview).toMatchObject({ canRewind: true, insertions: 1, deletions: 4 });
    expect([...(preview.filesChanged ?? [])].sort()).toEqual([join(root, 'keep.txt'), join(root, 'new.txt')]);
    expect(existsSync(join(root, 'new.txt'))).toBe(true);

    const rewound = await run.rewindFiles(uuid!);
    expect(rewound.canRewind).toBe(true);
    expect(existsSync(join(root, 'new.txt'))).toBe(false);
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('one\ntwo\n');

    const unknown = await run.rewindFiles('00000000-0000-4000-8000-000000000000');
    expect(unknown).toMatchObject({ canRewind: false, error: expect.stringContaining('no user message') });
    finish();
    run.close();
  });

  it('a file changed outside mca since the prompt is not overwritten: canRewind is false', async () => {
    const { root, home } = tempProject('mca-sdk-rewind2-', {});
    server = await startFakeAnthropic([
      { text: 'Writing.', calls: [{ id: 'toolu_w2', name: 'Write', input: { path: 'new.txt', content: 'x\n' } }] },
      { text: 'Done.' },
    ]);
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const sent = { ...userMessage('write it'), uuid: '11111111-2222-4333-8444-555555555555' as const };
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield sent;
      await done;
    }
    const run = query({
      prompt: prompts(),
      options: sdkOptions({ root, home, baseUrl: server.url }, { permissionMode: 'acceptEdits' }),
    });
    const messages = run[Symbol.asyncIterator]();
    for (let next = await messages.next(); !next.done; next = await messages.next()) {
      if (next.value.type === 'result') break;
    }
    writeFileSync(join(root, 'new.txt'), 'the person edited this\n');
    const answer = await run.rewindFiles(sent.uuid);
    expect(answer).toMatchObject({ canRewind: false, error: expect.stringContaining('new.txt') });
    expect(readFileSync(join(root, 'new.txt'), 'utf8')).toBe('the person edited this\n');
    finish();
    run.close();
  });
});

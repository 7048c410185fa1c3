/**
 * An image in a user message from the real Claude Agent SDK (streaming input, content blocks as Claude Code takes
 * them) reaches the model as an image block; a block that is no image is dropped (one stderr warning) and the turn still runs.
 */
import type { SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkQuery } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { pngBytes } from '../helpers/image-fixtures.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('Agent SDK user messages with images', () => {
  it('a base64 image block reaches the model; one that is no image is dropped', async () => {
    const { root, home } = tempProject('mca-sdk-img-');
    server = await startFakeAnthropic([{ text: 'A small grey image.' }]);
    const png = pngBytes(9, 4).toString('base64');
    const message = {
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'what is in this picture?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'aGVsbG8=' } },
        ],
      },
      parent_tool_use_id: null,
    } as SDKUserMessage;
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield message;
    }
    const messages = await sdkQuery({ root, home, baseUrl: server.url }, prompts());
    const result = messages.find((entry) => entry.type === 'result');
    expect(result).toMatchObject({ subtype: 'success', result: 'A small grey image.' });
    const blocks = (server.requests[0]?.body.messages ?? []).flatMap((entry) =>
      Array.isArray(entry.content) ? (entry.content as Array<{ type: string; source?: { data: string } }>) : [],
    );
    expect(blocks.filter((block) => block.type === 'image').map((block) => block.source?.data)).toEqual([png]);
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain('what is in this picture?');
  });
});

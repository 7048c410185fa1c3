/**
 * `mca --acp` with an image in the prompt (initialize offers `image`): the model's request carries it as an image
 * block; an image that is not one is named in the prompt's text instead of reaching the model.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { pngBytes } from '../helpers/image-fixtures.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp, type AcpChild } from './support/acp-client.js';

let server: FakeAnthropic | undefined;
let child: AcpChild | undefined;

afterEach(async () => {
  child?.child.kill('SIGKILL');
  child = undefined;
  await server?.close();
  server = undefined;
});

describe('mca --acp prompt images', () => {
  it('an image block reaches the model; a fake one is named in the text', async () => {
    const { root, home } = tempProject('mca-acp-img-');
    server = await startFakeAnthropic([{ text: 'A small picture.' }]);
    child = spawnAcp(root, {
      ANTHROPIC_API_KEY: 'sk-ant-test-acp-img-0123',
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: home,
      HOME: home,
    });
    const connection = acp
      .client({ name: 'acp-img-e2e' })
      .onNotification('session/update', () => undefined)
      .connect(child.stream);
    const init = await connection.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
    const { sessionId } = await connection.agent.request('session/new', { cwd: root, mcpServers: [] });
    const png = pngBytes(3, 2).toString('base64');
    const done = await connection.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image', mimeType: 'image/png', data: png },
        { type: 'image', mimeType: 'image/png', data: Buffer.from('not a picture').toString('base64') },
      ],
    });
    expect(done.stopReason).toBe('end_turn');
    const sent = JSON.stringify(server.requests[0]?.body.messages);
    expect(sent).toContain(`"media_type":"image/png","data":"${png}"`);
    expect(sent).toContain('image 2');
    expect(sent.match(/"type":"image"/g)).toHaveLength(1);
    expect(child.problems).toEqual([]);
    connection.close();
  });
});

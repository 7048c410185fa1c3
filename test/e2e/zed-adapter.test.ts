/**
 * Zed's Claude adapter (`@zed-industries/claude-agent-acp` 0.23, the ACP agent Zed runs for Claude) driving the
 * built mca as its Claude Code executable (`CLAUDE_CODE_EXECUTABLE`), through the ACP SDK's client, against the
 * loopback fake model. The adapter ends a prompt only on `session_state_changed` `idle` (it sets
 * CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS itself): before mca sent it, every prompt here timed out. Every message the
 * adapter sends is checked against the ACP schema (support/acp-client.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { MCA_BIN } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp, type AcpChild } from './support/acp-client.js';

const ADAPTER = fileURLToPath(
  new URL('../../node_modules/@zed-industries/claude-agent-acp/dist/index.js', import.meta.url),
);
const KEY = 'sk-ant-test-zed-adapter-0123456789';
let server: FakeAnthropic | undefined;
const children: AcpChild[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.child.kill('SIGKILL');
  await server?.close();
  server = undefined;
});

describe("Zed's Claude adapter over mca", () => {
  it('ends prompts, asks permission for a Bash call and reports its tool call, all valid ACP', async () => {
    const { root, home } = tempProject('mca-zed-');
    server = await startFakeAnthropic([
      { text: '', calls: [{ name: 'Bash', input: { command: 'touch made-by-bash' } }] },
      { text: 'Made it.' },
      { text: 'Second answer.' },
    ]);
    const child = spawnAcp(
      root,
      {
        HOME: home,
        MCA_HOME: home,
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: server.url,
        CLAUDE_CODE_EXECUTABLE: MCA_BIN,
      },
      [],
      ADAPTER,
    );
    children.push(child);
    const updates: acp.SessionNotification[] = [];
    const asked: acp.RequestPermissionRequest[] = [];
    const connection = acp
      .client({ name: 'zed-adapter-e2e' })
      .onNotification('session/update', ({ params }) => void updates.push(params))
      .onRequest('session/request_permission', ({ params }) => {
        asked.push(params);
        const allow = params.options.find((option) => option.kind === 'allow_once') ?? params.options[0];
        return { outcome: { outcome: 'selected', optionId: allow!.optionId } };
      })
      .connect(child.stream);
    const agent = connection.agent;
    await agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    const session = await agent.request('session/new', { cwd: root, mcpServers: [] });

    const first = await agent.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'make a file' }],
    });
    expect(first.stopReason, child.stderr()).toBe('end_turn');
    expect(existsSync(join(root, 'made-by-bash'))).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.toolCall).toMatchObject({ toolCallId: expect.any(String) });
    const kinds = updates.map((notification) => notification.update.sessionUpdate);
    expect(kinds).toContain('tool_call');
    expect(kinds).toContain('tool_call_update');
    const callId = asked[0]!.toolCall.toolCallId;
    const callUpdates = updates
      .map((notification) => notification.update)
      .filter((update) => 'toolCallId' in update && update.toolCallId === callId);
    expect(callUpdates.some((update) => 'status' in update && update.status === 'completed')).toBe(true);
    // The answer streams as chunks (the adapter asks for partial messages).
    const said = (text: string) =>
      updates
        .map(({ update }) =>
          update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : '',
        )
        .join('')
        .includes(text);
    expect(said('Made it.')).toBe(true);

    const second = await agent.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'and now?' }],
    });
    expect(second.stopReason).toBe('end_turn');
    expect(said('Second answer.')).toBe(true);
    expect(child.problems).toEqual([]);
    // The adapter ran mca, not Claude Code: the model got mca's requests with mca's key.
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
    expect(readFileSync(join(root, 'made-by-bash'), 'utf8')).toBe('');
    connection.close();
  }, 90_000);
});

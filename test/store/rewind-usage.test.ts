/**
 * A conversation cut (SessionStore.cut, what every rewind uses) keeps what the removed model calls cost: the
 * loaded session's per-model usage is the same as before the cut, while the kept messages' own `usage` (what the
 * context size is read from) is untouched and nothing of the removed round is left. A second cut further back
 * removes the first cut's carrier and still keeps every call's cost.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { msg } from './messages.js';
import { usageByModel } from '../../src/context/archived-usage.js';
import type { Message } from '../../src/context/message.js';
import { readSessionPrompts } from '../../src/checkpoints/session-prompts.js';
import { SessionStore } from '../../src/store/session-store.js';

let home: string;
let project: string;

beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), 'mca-rewind-usage-'));
  home = join(root, 'home');
  project = join(root, 'project');
  await mkdir(project);
});
afterEach(async () => {
  await rm(join(home, '..'), { recursive: true, force: true });
});

const usage = (inputTokens: number, model: string) => ({
  inputTokens,
  outputTokens: 10,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
  model,
});

function round(n: number, inputTokens: number, extra: Partial<Message['metadata']> = {}): Message[] {
  return [
    { ...msg('user', `prompt ${n}`, n), metadata: { round: n, ts: `2025-01-0${n}T00:00:00.000Z` } },
    msg('assistant', 'Action: Agent', n, {
      step: 1,
      action: { tool: 'Agent', input: { prompt: 'look' } },
      callId: `call-${n}`,
      usage: usage(inputTokens, 'claude-sonnet-4-5'),
    }),
    msg('tool', '{"status":"success"}', n, { step: 1, toolName: 'Agent', callId: `call-${n}`, ...extra }),
    msg('assistant', `answer ${n}`, n, { step: 2, roundEnd: 'answer', usage: usage(inputTokens, 'claude-sonnet-4-5') }),
  ];
}

async function cutBefore(store: SessionStore, sessionId: string, path: string, content: string): Promise<Message[]> {
  const prompt = (await readSessionPrompts(path)).find((entry) => entry.content === content);
  if (!prompt) throw new Error(`no prompt ${content}`);
  await store.cut(sessionId, prompt.offset, prompt.snapshotPrefix);
  const loaded = await store.open(sessionId);
  loaded.writer.close();
  return loaded.messages;
}

it('a cut keeps the removed calls in the cost (subagents too), not in the kept messages` usage', async () => {
  const store = new SessionStore(home, project);
  const writer = await store.create('claude-sonnet-4-5');
  const messages = [
    ...round(1, 1000),
    ...round(2, 2000, { carriedUsage: { 'claude-haiku-4-5': usage(500, 'claude-haiku-4-5') } }),
    ...round(3, 4000),
  ];
  for (const message of messages) writer.appendMessage(message);
  writer.close();
  const spent = usageByModel(messages);

  const afterFirstCut = await cutBefore(store, writer.sessionId, writer.path, 'prompt 3');
  expect(afterFirstCut.map((message) => message.content)).not.toContain('prompt 3');
  expect(usageByModel(afterFirstCut)).toEqual(spent);
  expect(afterFirstCut.map((message) => message.metadata.usage)).toEqual(
    messages.slice(0, 8).map((message) => message.metadata.usage),
  );

  const afterSecondCut = await cutBefore(store, writer.sessionId, writer.path, 'prompt 2');
  expect(afterSecondCut.map((message) => message.content)).toEqual([
    'prompt 1',
    'Action: Agent',
    '{"status":"success"}',
    'answer 1',
  ]);
  expect(usageByModel(afterSecondCut)).toEqual(spent);
  expect(afterSecondCut.at(-1)?.metadata.usage).toEqual(usage(1000, 'claude-sonnet-4-5'));
});

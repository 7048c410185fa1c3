/**
 * `session/load`: a stored conversation replayed as `session/update`s: each user message as a user chunk, each
 * reply's thought and answer as thought and message chunks, each tool call as a finished `tool_call` (its result
 * from the compressed form history keeps). Archived (compacted) rounds are summaries and are not replayed.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { parseReply } from '../loop/react-protocol.js';
import type { Message } from '../context/message.js';
import { userWords } from '../text/user-words.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import { CONTENT_MAX_CHARS, toolKind, toolLocations, toolTitle } from './tool-calls.js';

function chunk(
  kind: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk',
  text: string,
): SessionUpdate {
  return { sessionUpdate: kind, content: { type: 'text', text } };
}

function failed(content: string): boolean {
  try {
    return (JSON.parse(content) as { status?: unknown }).status === 'error';
  } catch {
    return false;
  }
}

export function historyUpdates(
  messages: readonly Message[],
  projectRoot: string,
  registry: ToolRegistry,
): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  let calls = 0;
  for (const entry of messages) {
    if (entry.role === 'user') {
      const text = userWords(entry.content);
      if (text !== '') updates.push(chunk('user_message_chunk', text));
    } else if (entry.role === 'assistant') {
      const parsed = parseReply(entry.content);
      const end = entry.metadata.roundEnd;
      if (end === 'interrupted' || end === 'error' || end === 'step_limit') {
        updates.push(chunk('agent_message_chunk', entry.content));
      } else if (parsed.kind === 'answer') updates.push(chunk('agent_message_chunk', parsed.answer));
      else {
        if (parsed.thought) updates.push(chunk('agent_thought_chunk', parsed.thought));
        if (parsed.kind === 'finish') updates.push(chunk('agent_message_chunk', parsed.answer));
      }
    } else if (entry.role === 'tool' && entry.metadata.action && entry.metadata.action.tool !== 'ReAct') {
      const { tool, input } = entry.metadata.action;
      calls += 1;
      const definition = registry.get(tool);
      updates.push({
        sessionUpdate: 'tool_call',
        toolCallId: entry.metadata.callId ?? `replayed_${calls}`,
        title: toolTitle(tool, definition, input),
        kind: toolKind(definition),
        status: failed(entry.content) ? 'failed' : 'completed',
        locations: toolLocations(projectRoot, definition, input),
        rawInput: input,
        content: [{ type: 'content', content: { type: 'text', text: entry.content.slice(0, CONTENT_MAX_CHARS) } }],
      });
    }
  }
  return updates;
}

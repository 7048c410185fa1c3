/**
 * A resumed session (`mca -c`, `/resume`) shows where it left off: its newest rounds rebuilt as transcript entries
 * from the stored history. Tool results come from their compressed form, which keeps the fields the one-line
 * summaries read; archived rounds are only counted.
 */
import { parseReply } from '../loop/react-protocol.js';
import type { Message } from '../context/message.js';
import { toRounds } from '../context/message.js';
import type { ToolEnvelope, ToolError } from '../tools/registry/envelope.js';
import { toolNamed } from '../tools/registry/tool-catalog.js';
import type { TranscriptEntry } from './transcript-state.js';
import { userWords } from '../text/user-words.js';

/** The data the transcript shows for a stored (compressed) result: the tool's own `display.replay`, else as stored. */
function replayedData(tool: string, data: Record<string, unknown>): Record<string, unknown> {
  const replay = toolNamed(tool)?.display?.replay;
  return replay ? replay(data) : data;
}

function envelopeOf(content: string, tool: string): ToolEnvelope {
  let parsed: { status?: unknown; data?: unknown; error?: unknown } = {};
  try {
    parsed = JSON.parse(content) as typeof parsed;
  } catch {
    // A result that is not JSON is shown as an unknown success; nothing else depends on it.
  }
  const status = parsed.status === 'error' || parsed.status === 'partial' ? parsed.status : 'success';
  const data = parsed.data !== null && typeof parsed.data === 'object' ? (parsed.data as Record<string, unknown>) : {};
  const envelope: ToolEnvelope = {
    status,
    data: replayedData(tool, data),
    text: '',
    stats: { durationMs: 0 },
    context: {},
  };
  if (parsed.error !== null && typeof parsed.error === 'object') envelope.error = parsed.error as ToolError;
  return envelope;
}

function assistantEntries(message: Message): TranscriptEntry[] {
  const parsed = parseReply(message.content);
  const end = message.metadata.roundEnd;
  if (end === 'interrupted' || end === 'error' || end === 'step_limit') {
    return [{ kind: 'notice', tone: end === 'interrupted' ? 'warning' : 'error', text: message.content }];
  }
  if (parsed.kind === 'answer') return [{ kind: 'answer', text: parsed.answer }];
  const thought: TranscriptEntry[] = parsed.thought ? [{ kind: 'thought', text: parsed.thought }] : [];
  if (parsed.kind === 'finish') return [...thought, { kind: 'answer', text: parsed.answer }];
  return thought;
}

/** Entries for the newest `maxRounds` rounds of `messages`, preceded by a line counting what is not shown. */
export function historyEntries(messages: readonly Message[], maxRounds = 5): TranscriptEntry[] {
  const rounds = toRounds(messages);
  const summaries = messages.filter((message) => message.role === 'summary').length;
  const shown = rounds.slice(-maxRounds);
  const hidden = rounds.length - shown.length;
  const entries: TranscriptEntry[] = [];
  if (hidden > 0 || summaries > 0) {
    const parts = [hidden > 0 ? `${hidden} earlier round${hidden === 1 ? '' : 's'} not shown` : '']
      .concat(summaries > 0 ? [`${summaries} archived summar${summaries === 1 ? 'y' : 'ies'}`] : [])
      .filter((part) => part !== '');
    entries.push({ kind: 'notice', tone: 'dim', text: `… ${parts.join(' · ')}` });
  }
  for (const round of shown) {
    for (const message of round.messages) {
      if (message.role === 'user') {
        entries.push({ kind: 'user', text: userWords(message.content) });
      } else if (message.role === 'assistant') entries.push(...assistantEntries(message));
      else if (message.role === 'tool' && message.metadata.action) {
        const { tool, input } = message.metadata.action;
        if (tool !== 'ReAct') entries.push({ kind: 'tool', tool, input, result: envelopeOf(message.content, tool) });
      }
    }
  }
  return entries;
}

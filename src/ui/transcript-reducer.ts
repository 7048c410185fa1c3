/**
 * AgentEvents → transcript. A pure reducer: finished items are append-only (they go to Ink's <Static>,
 * written once); `live` is the small area redrawn while a step runs.
 */
import { webSearchLine } from '../loop/web-search-line.js';
import { modelFallbackLine } from '../loop/model-fallback-line.js';
import { addModelUsage } from '../context/archived-usage.js';
import type { AgentEvent } from '../loop/events.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import type { TodoItem } from '../tools/registry/tool-data.js';
import { completeBlocks, completeWords, liveAnswer, liveThought } from './streaming-text.js';
import {
  IDLE_LIVE,
  formatTokens,
  type LiveState,
  type TranscriptAction,
  type TranscriptEntry,
  type TranscriptState,
} from './transcript-state.js';

/** Writes the step's extended thinking (if any) as a dimmed entry. */
function flushThinking(state: TranscriptState): TranscriptState {
  const text = state.live.thinking.trim();
  if (text === '') return state;
  return append(withLive(state, { thinking: '' }), { kind: 'notice', tone: 'dim', text: `Thinking: ${text}` });
}

/**
 * What a successful call adds under its line for people to read: TodoWrite's list as a checklist (each time it
 * changes), ExitPlanMode's approved plan as Markdown.
 */
function followUps(tool: string, input: unknown, result: ToolEnvelope): TranscriptEntry[] {
  if (result.status === 'error' || input === null || typeof input !== 'object') return [];
  const fields = input as Record<string, unknown>;
  if (tool === 'ExitPlanMode' && typeof fields.plan === 'string') return [{ kind: 'plan', text: fields.plan }];
  if (tool !== 'TodoWrite' || !Array.isArray(fields.todos)) return [];
  const todos = fields.todos.filter(
    (todo): todo is TodoItem =>
      todo !== null &&
      typeof todo === 'object' &&
      typeof (todo as TodoItem).content === 'string' &&
      ['pending', 'in_progress', 'completed', 'cancelled'].includes((todo as TodoItem).status),
  );
  return todos.length > 0 ? [{ kind: 'todos', todos: todos.map(({ content, status }) => ({ content, status })) }] : [];
}

export function initialTranscript(items: TranscriptEntry[] = []): TranscriptState {
  return {
    // The first items (the header naming the model, replayed history) go through the same neutralising as the rest.
    items: items.map((entry, index) => ({ ...safe(entry), id: index + 1 })),
    live: IDLE_LIVE,
    nextId: items.length + 1,
    contextTokens: null,
    sessionUsage: {},
  };
}

/** Text from the model, tools or errors is shown with control sequences made visible (tool entries: format-tool). */
function safe(entry: TranscriptEntry): TranscriptEntry {
  switch (entry.kind) {
    case 'user':
    case 'thought':
    case 'answer':
    case 'notice':
    case 'plan':
      return { ...entry, text: neutralizeControlSequences(entry.text) };
    case 'todos':
      return {
        ...entry,
        todos: entry.todos.map((todo) => ({ ...todo, content: neutralizeControlSequences(todo.content) })),
      };
    default:
      return entry;
  }
}

function append(state: TranscriptState, ...entries: TranscriptEntry[]): TranscriptState {
  const fresh = entries.map((entry, index) => ({ ...safe(entry), id: state.nextId + index }));
  return { ...state, items: [...state.items, ...fresh], nextId: state.nextId + fresh.length };
}

function withLive(state: TranscriptState, live: Partial<LiveState>): TranscriptState {
  return { ...state, live: { ...state.live, ...live } };
}

/** A thought held back for a step without an action turned out not to be the answer: show it. */
function flushPendingThought(state: TranscriptState): TranscriptState {
  const pending = state.live.pendingThought;
  if (!pending) return state;
  return append(withLive(state, { pendingThought: '' }), { kind: 'thought', text: pending });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function compactionNotice(event: Extract<AgentEvent, { type: 'compaction_end' }>): TranscriptEntry {
  switch (event.outcome) {
    case 'summary':
      return {
        kind: 'notice',
        tone: 'success',
        text:
          `✻ Conversation compacted: ${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens` +
          ` · ${plural(event.roundsKept, 'round')} kept · ${event.roundsArchived} archived`,
      };
    case 'nothing_to_compact':
      return { kind: 'notice', tone: 'dim', text: 'Nothing to compact yet.' };
    case 'timeout':
      return {
        kind: 'notice',
        tone: 'warning',
        text: event.message ?? 'Summary generation timed out, keeping recent history only.',
      };
    case 'failed':
      return {
        kind: 'notice',
        tone: 'warning',
        text: event.message ?? 'Summary generation failed, keeping recent history only.',
      };
  }
}

/**
 * The final answer, minus the blocks already written while it streamed. The parser's answer is the truth: if it
 * does not continue what was shown (it never should), it is written whole.
 */
function answerEntries(shown: string, answer: string): TranscriptEntry[] {
  if (shown && answer.startsWith(shown)) {
    const rest = answer.slice(shown.length).trim();
    return rest ? [{ kind: 'answer', text: rest, continued: true }] : [];
  }
  return answer.trim() ? [{ kind: 'answer', text: answer }] : [];
}

function endTurn(state: TranscriptState, event: Extract<AgentEvent, { type: 'turn_end' }>): TranscriptState {
  const entries: TranscriptEntry[] = [];
  const answer = event.answer.trim();
  const pending = state.live.pendingThought.trim();
  const shown = state.live.answerShown;
  switch (event.reason) {
    case 'finish':
    case 'answer':
      if (pending && pending !== answer && !shown) entries.push({ kind: 'thought', text: pending });
      entries.push(...answerEntries(shown, event.answer));
      break;
    case 'interrupted': {
      const partialAnswer = state.live.native ? state.live.streamText : liveAnswer(state.live.streamText);
      if (partialAnswer !== undefined) entries.push(...answerEntries(shown, partialAnswer));
      else {
        const thought = liveThought(state.live.streamText, { final: true });
        if (thought) entries.push({ kind: 'thought', text: thought });
      }
      const declined = event.error?.code === 'USER_DECLINED';
      entries.push(
        declined
          ? { kind: 'notice', tone: 'warning', text: 'Declined · the turn stopped; tell mca what to do instead' }
          : { kind: 'notice', tone: 'error', text: 'Interrupted' },
      );
      break;
    }
    case 'error': {
      // The answer arrived and only saving it failed (MCA_HOME full): it is shown, then the failure.
      if (event.unsavedAnswer) entries.push(...answerEntries(shown, event.unsavedAnswer));
      const code = event.error?.code ? `${event.error.code}: ` : '';
      entries.push({ kind: 'notice', tone: 'error', text: `Error ${code}${event.error?.message ?? event.answer}` });
      break;
    }
    case 'step_limit':
      if (answer) entries.push({ kind: 'answer', text: event.answer });
      entries.push({ kind: 'notice', tone: 'warning', text: `Stopped after ${event.steps} steps (step limit).` });
      break;
  }
  return { ...append(state, ...entries), live: IDLE_LIVE };
}

/** The agent reports mentions as displayed in its reminder (`@src/a.ts`, `@"a b.md"`); a bare path gets the `@`. */
function mentionLabel(mention: string): string {
  return mention.startsWith('@') ? mention : `@${mention}`;
}

/**
 * A text delta: once the step is known to be a final answer, every block of it that is complete goes to the
 * transcript (after the step's thought), so a long answer is read while the rest arrives.
 */
function streamDelta(state: TranscriptState, streamText: string): TranscriptState {
  const next = withLive(state, { streamText });
  const answer = state.live.native ? completeWords(streamText) : liveAnswer(streamText);
  if (answer === undefined) return next;
  const shown = state.live.answerShown;
  if (!answer.startsWith(shown)) return next;
  // Only the part after what is shown is lexed again: it starts at a block boundary, so it lexes the same.
  const blocks = shown + completeBlocks(answer.slice(shown.length));
  if (blocks.length <= shown.length) return next;
  const thought = shown || state.live.native ? '' : liveThought(streamText);
  const entries: TranscriptEntry[] = thought ? [{ kind: 'thought', text: thought }] : [];
  entries.push({ kind: 'answer', text: blocks.slice(shown.length), ...(shown ? { continued: true } : {}) });
  return append(withLive(next, { answerShown: blocks }), ...entries);
}

function reduceEvent(state: TranscriptState, event: AgentEvent): TranscriptState {
  switch (event.type) {
    case 'turn_start': {
      const started = withLive(state, { ...IDLE_LIVE, running: true });
      if (event.mentions.length === 0) return started;
      const text = `Mentioned ${event.mentions.map(mentionLabel).join(', ')}`;
      return append(started, { kind: 'notice', tone: 'dim', text });
    }
    case 'step_start':
      return withLive(flushPendingThought(flushThinking(state)), {
        running: true,
        step: event.step,
        streamText: '',
        answerShown: '',
        native: event.native === true,
      });
    case 'text_delta':
      return streamDelta(flushThinking(state), state.live.streamText + event.text);
    case 'thinking_delta':
      return withLive(state, { thinking: state.live.thinking + event.text });
    case 'assistant_step': {
      state = flushThinking(state);
      const thought = event.thought.trim();
      if (state.live.native && event.action !== null && state.live.answerShown) {
        // The text before the calls was already written while it streamed: only its unwritten rest follows.
        const rest = answerEntries(state.live.answerShown, thought);
        return append(withLive(state, { streamText: '', pendingThought: '', answerShown: '' }), ...rest);
      }
      if (event.action === null) {
        // The thought of a streamed answer was written before its first block.
        return withLive(state, { streamText: '', pendingThought: state.live.answerShown ? '' : thought });
      }
      const cleared = withLive(state, { streamText: '', pendingThought: '' });
      return thought ? append(cleared, { kind: 'thought', text: thought }) : cleared;
    }
    case 'tool_start':
      return withLive(state, { tools: [...state.live.tools, { id: event.id, tool: event.tool, input: event.input }] });
    case 'tool_end':
      return append(
        withLive(flushPendingThought(state), { tools: state.live.tools.filter((t) => t.id !== event.id) }),
        {
          kind: 'tool',
          tool: event.tool,
          input: event.input,
          result: event.result,
        },
        ...followUps(event.tool, event.input, event.result),
      );
    case 'usage':
      return {
        ...withLive(state, { turnTokens: state.live.turnTokens + event.usage.outputTokens }),
        contextTokens: event.contextTokens,
        sessionUsage: addModelUsage(state.sessionUsage, event.usage),
      };
    case 'retry':
      return append(withLive(state, { streamText: '' }), {
        kind: 'notice',
        tone: 'dim',
        text: `Retrying in ${Math.ceil(event.delayMs / 1000)}s (attempt ${event.attempt}): ${event.reason}`,
      });
    case 'warning':
      return append(state, { kind: 'notice', tone: 'warning', text: event.message });
    case 'model_fallback':
      return append(withLive(state, { streamText: '' }), {
        kind: 'notice',
        tone: 'warning',
        text: modelFallbackLine(event),
      });
    case 'web_search':
      return append(state, { kind: 'notice', tone: 'dim', text: webSearchLine(event) });
    case 'degrade':
      return append(state, {
        kind: 'notice',
        tone: 'warning',
        text: `Context degraded (level ${event.level}): ${event.message}`,
      });
    case 'compaction_start':
      return withLive(state, {
        compacting: { reason: event.reason, tokensBefore: event.tokensBefore, roundsToArchive: event.roundsToArchive },
      });
    case 'compaction_end': {
      const done = append(withLive(state, { compacting: null }), compactionNotice(event));
      return event.outcome === 'summary' ? { ...done, contextTokens: event.tokensAfter } : done;
    }
    case 'turn_end':
      return endTurn(flushThinking(state), event);
  }
}

export function transcriptReducer(state: TranscriptState, action: TranscriptAction): TranscriptState {
  switch (action.type) {
    case 'event':
      return reduceEvent(state, action.event);
    case 'user':
      return append(state, { kind: 'user', text: action.text });
    case 'append':
      return append(state, action.entry);
    case 'shell_start':
      return {
        ...state,
        live: {
          ...IDLE_LIVE,
          running: true,
          tools: [{ id: 'shell', tool: 'Bash', input: { command: action.command } }],
        },
      };
    case 'clear_items':
      return { ...state, items: [] };
    case 'switch_session': {
      const base = action.clear ? { ...state, items: [] } : state;
      return { ...base, contextTokens: action.tokens, sessionUsage: action.usage };
    }
    case 'stopped': {
      const entries: TranscriptEntry[] = action.message
        ? [{ kind: 'notice', tone: 'error', text: action.message }]
        : [];
      return { ...append(state, ...entries), live: IDLE_LIVE };
    }
  }
}

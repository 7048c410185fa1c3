/**
 * The driver's events as ACP `session/update`s: streamed text and thinking as message and thought chunks, each
 * tool call as `tool_call` then `tool_call_update`, TodoWrite as `plan`, usage as `usage_update`, the mode as
 * `current_mode_update`. The translation holds one turn's state (whether the answer was streamed already, the
 * inputs of open calls); the driver's events are never a wire format themselves.
 */
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../loop/events.js';
import { modelFallbackLine } from '../loop/model-fallback-line.js';
import type { DriverEvent } from '../driver/driver-events.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import { editDiffs, planEntries, resultContent, toolKind, toolLocations, toolTitle } from './tool-calls.js';

type TurnEnd = Extract<AgentEvent, { type: 'turn_end' }>;

export interface UpdateContext {
  projectRoot: string;
  registry: ToolRegistry;
  /** The model's context window, the `size` of usage updates. */
  contextWindow: number;
  /**
   * Calls whose command ran in a client terminal, already in their content (client-terminal.ts): their last
   * update leaves the content as it is (the terminal shows the output; it was released, so it is not sent again).
   */
  inTerminal?: Set<string>;
}

function message(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

function thought(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } };
}

/** How a turn that ended on its own maps to a stop reason (a cancelled prompt answers `cancelled` regardless). */
export function stopReasonOf(end: TurnEnd | undefined): StopReason {
  if (!end) return 'end_turn';
  if (end.reason === 'step_limit') return 'max_turn_requests';
  if (end.reason === 'interrupted') return 'cancelled';
  const code = end.error?.code ?? '';
  if (/max_tokens|MAX_TOKENS|OUTPUT_LIMIT/.test(code)) return 'max_tokens';
  if (/refus/i.test(code)) return 'refusal';
  return 'end_turn';
}

export class EventUpdates {
  /** Whether this turn streamed answer text (else the turn's answer is sent once it ends). */
  private streamed = false;
  /** Steps that stream plain text (native tool use); text-protocol steps are shown from their parsed form. */
  private nativeSteps = new Set<number>();
  end: TurnEnd | undefined;

  constructor(private readonly context: UpdateContext) {}

  beginTurn(): void {
    this.streamed = false;
    this.nativeSteps.clear();
    this.end = undefined;
  }

  updates(event: DriverEvent): SessionUpdate[] {
    switch (event.type) {
      case 'step_start':
        if (event.native === true) this.nativeSteps.add(event.step);
        return [];
      case 'text_delta':
        if (!this.nativeSteps.has(event.step) || event.text === '') return [];
        this.streamed = true;
        return [message(event.text)];
      case 'thinking_delta':
        return event.text === '' ? [] : [thought(event.text)];
      case 'assistant_step':
        // A text-protocol step: its thought before the action is shown as a thought.
        return !this.nativeSteps.has(event.step) && event.action && event.thought.trim() !== ''
          ? [thought(event.thought)]
          : [];
      case 'tool_start':
        return this.toolStart(event);
      case 'tool_end':
        return this.toolEnd(event);
      case 'usage':
        return [{ sessionUpdate: 'usage_update', used: event.contextTokens, size: this.context.contextWindow }];
      case 'warning':
        return [message(`\n[mca] ${event.message}\n`)];
      case 'model_fallback':
        return [message(`\n[mca] ${modelFallbackLine(event)}\n`)];
      case 'turn_end':
        return this.turnEnd(event);
      case 'mode':
        return [{ sessionUpdate: 'current_mode_update', currentModeId: event.mode }];
      case 'prompt_blocked':
        return [message(`The prompt was blocked by a hook: ${event.reason}`)];
      case 'command_failed':
        return [
          message(`/${event.name} failed: ${event.error instanceof Error ? event.error.message : String(event.error)}`),
        ];
      case 'notice':
        return event.tone === 'info' ? [] : [message(`\n[mca] ${event.text}\n`)];
      default:
        return [];
    }
  }

  private toolStart(event: Extract<AgentEvent, { type: 'tool_start' }>): SessionUpdate[] {
    if (event.tool === 'ReAct') return [];
    const { projectRoot, registry } = this.context;
    const definition = registry.get(event.tool);
    const diffs = editDiffs(projectRoot, definition, event.input);
    const updates: SessionUpdate[] = [
      {
        sessionUpdate: 'tool_call',
        toolCallId: event.id,
        title: toolTitle(event.tool, definition, event.input),
        kind: toolKind(definition),
        status: 'pending',
        locations: toolLocations(projectRoot, definition, event.input),
        rawInput: event.input,
        ...(diffs.length > 0 ? { content: diffs } : {}),
      },
    ];
    return updates;
  }

  private toolEnd(event: Extract<AgentEvent, { type: 'tool_end' }>): SessionUpdate[] {
    if (event.tool === 'ReAct') return [];
    const { projectRoot, registry } = this.context;
    const definition = registry.get(event.tool);
    const failed = event.result.status === 'error';
    const terminal = this.context.inTerminal?.delete(event.id) === true;
    const updates: SessionUpdate[] = [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: event.id,
        status: failed ? 'failed' : 'completed',
        ...(terminal ? {} : { content: resultContent(projectRoot, definition, event.input, event.result) }),
      },
    ];
    const entries = failed ? undefined : planEntries(definition, event.input);
    if (entries) updates.push({ sessionUpdate: 'plan', entries });
    return updates;
  }

  private turnEnd(event: TurnEnd): SessionUpdate[] {
    this.end = event;
    if (event.reason === 'interrupted') return [];
    // A streamed answer was shown already; an error or step-limit line never streams.
    const shown = this.streamed && (event.reason === 'finish' || event.reason === 'answer');
    const answer = event.unsavedAnswer ?? (shown ? '' : event.answer);
    const updates = answer.trim() === '' ? [] : [message(answer)];
    if (event.reason === 'error' && event.unsavedAnswer !== undefined) updates.push(message(`\n${event.answer}`));
    return updates;
  }
}

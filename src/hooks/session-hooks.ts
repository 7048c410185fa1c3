/**
 * A session's hooks as the driver uses them: one method per moment (before a tool, after it, a prompt submitted,
 * the agent stopping, the session starting or ending, compaction, a notification), each answering in the driver's
 * terms. Lines meant for the user (failures, timeouts, system messages) go to `notify`; text meant for the model is
 * returned so the caller puts it where the model reads it (`reminder()` wraps it).
 *
 * Which calls hooks see: every call the model or a subagent causes, and a custom command's `!` lines (a file may
 * bring those). The user's own `!` lines never run hooks: the person typing them is the one the hooks protect.
 */
import type { HookEngine, HookListing } from './hook-engine.js';
import type { HookEvent, HookSessionInfo, HookSubagent, SessionEndReason, SessionStartSource } from './hook-events.js';
import type { HookEventResult } from './hook-result.js';
import type { LoadedHooks } from './hook-sources.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';

/** A tool call as the decision point knows it (the tools floor's ToolCall has this shape). */
export interface HookedCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly source: 'model' | 'user-shell' | 'command' | 'subagent';
}

export interface PreToolVerdict {
  /** undefined: no hook decided; the rules and the broker decide as without hooks. */
  readonly decision?: 'allow' | 'deny' | 'ask';
  /** For deny, the text the model reads; for ask, what the question shows. */
  readonly reason?: string;
  /** The input to run instead, in mca's names. */
  readonly updatedInput?: unknown;
  /** Text for the model (PreToolUse additionalContext). */
  readonly context: readonly string[];
  /** A hook answered `continue: false`: the turn ends after this call; shown to the user. */
  readonly stop?: string;
}

export interface PermissionVerdict {
  readonly decision?: 'allow' | 'deny';
  readonly reason?: string;
  readonly updatedInput?: unknown;
}

export interface PostToolVerdict {
  /**
   * The result the model reads: the tool's own, with the hooks' text for the model (PreToolUse and PostToolUse
   * additionalContext, a PostToolUse block's reason or exit 2's stderr) appended as one `<system-reminder>`.
   */
  readonly envelope: ToolEnvelope;
  readonly stop?: string;
}

export interface PromptVerdict {
  /** The prompt is erased; this is shown to the user (the model never sees the prompt). */
  readonly blocked?: string;
  /** Text for the model, added to the prompt. */
  readonly context: readonly string[];
  readonly stop?: string;
}

export interface StopVerdict {
  /** The agent goes on with this as the next user message (Stop blocked). */
  readonly continueWith?: string;
}

const NOTHING = { context: [] as readonly string[] };

/** Model-facing hook text as one `<system-reminder>` block, labelled with the event. */
export function reminder(event: string, context: readonly string[]): string {
  if (context.length === 0) return '';
  return ['<system-reminder>', `${event} hook additional context:`, ...context, '</system-reminder>'].join('\n');
}

/** `envelope` with the hooks' text for the model appended to the text it reads, one block per event. */
function withContext(envelope: ToolEnvelope, groups: ReadonlyArray<[string, readonly string[]]>): ToolEnvelope {
  const blocks = groups.map(([event, lines]) => reminder(event, lines)).filter((block) => block !== '');
  if (blocks.length === 0) return envelope;
  return { ...envelope, text: [envelope.text, ...blocks].filter((part) => part !== '').join('\n\n') };
}

export class SessionHooks {
  /** PreToolUse context by call id, given to the model with the call's result. */
  private readonly preContext = new Map<string, readonly string[]>();

  constructor(
    private readonly loaded: LoadedHooks,
    private readonly engine: HookEngine | undefined,
    private readonly session: () => HookSessionInfo,
    private readonly notify: (line: string) => void,
  ) {}

  /** Whether any hook is in effect. */
  get active(): boolean {
    return this.engine !== undefined;
  }

  private async fire(event: HookEvent, signal?: AbortSignal): Promise<HookEventResult | undefined> {
    if (!this.engine?.has(event.name)) return undefined;
    const result = await this.engine.run(event, this.session(), signal);
    for (const line of result.messages) this.notify(line);
    return result;
  }

  /** `continue: false` where it is honoured (a tool call, a stop): the person learns why the turn ended. */
  private stopped(event: string, reason: string): void {
    this.notify(`a ${event} hook ended the turn${reason ? `: ${reason}` : ''}`);
  }

  async beforeTool(call: HookedCall, signal?: AbortSignal): Promise<PreToolVerdict> {
    if (call.source === 'user-shell') return NOTHING;
    const result = await this.fire(
      { name: 'PreToolUse', toolName: call.name, toolInput: call.input, toolUseId: call.id },
      signal,
    );
    if (!result) return NOTHING;
    if (result.stop) this.stopped('PreToolUse', result.stop.reason);
    const decision = result.decision === 'block' ? 'deny' : result.decision;
    if (result.context.length > 0 && decision !== 'deny') this.preContext.set(call.id, result.context);
    return {
      ...(decision ? { decision } : {}),
      ...(result.reason ? { reason: result.reason } : {}),
      ...(result.updatedInput !== undefined && decision !== 'deny' ? { updatedInput: result.updatedInput } : {}),
      context: result.context,
      ...(result.stop ? { stop: result.stop.reason } : {}),
    };
  }

  /**
   * A call is about to be put to the person (or, with nobody to ask, refused): PermissionRequest hooks may answer
   * for them. undefined decision: ask (or refuse) as without hooks.
   */
  async permissionRequest(call: HookedCall, signal?: AbortSignal): Promise<PermissionVerdict> {
    if (call.source === 'user-shell') return {};
    const event = {
      name: 'PermissionRequest',
      toolName: call.name,
      toolInput: call.input,
      toolUseId: call.id,
    } as const;
    const result = await this.fire(event, signal);
    if (result?.decision !== 'allow' && result?.decision !== 'deny') return {};
    return {
      decision: result.decision,
      ...(result.reason ? { reason: result.reason } : {}),
      ...(result.updatedInput !== undefined && result.decision === 'allow'
        ? { updatedInput: result.updatedInput }
        : {}),
    };
  }

  /** PostToolUse for a result that is not an error, PostToolUseFailure for one that is. */
  async afterTool(call: HookedCall, envelope: ToolEnvelope, signal?: AbortSignal): Promise<PostToolVerdict> {
    if (call.source === 'user-shell') return { envelope };
    const before = this.preContext.get(call.id) ?? [];
    this.preContext.delete(call.id);
    const base = { toolName: call.name, toolInput: call.input, toolUseId: call.id };
    const event: HookEvent =
      envelope.status === 'error'
        ? {
            name: 'PostToolUseFailure',
            ...base,
            error: envelope.error?.message ?? envelope.text,
            isInterrupt: envelope.data.interrupted === true,
          }
        : { name: 'PostToolUse', ...base, envelope };
    const result = await this.fire(event, signal);
    if (result?.stop) this.stopped(event.name, result.stop.reason);
    const after = result?.decision === 'block' && result.reason ? [result.reason, ...result.context] : result?.context;
    return {
      envelope: withContext(envelope, [
        ['PreToolUse', before],
        [event.name, after ?? []],
      ]),
      ...(result?.stop ? { stop: result.stop.reason } : {}),
    };
  }

  async promptSubmitted(prompt: string, signal?: AbortSignal): Promise<PromptVerdict> {
    const result = await this.fire({ name: 'UserPromptSubmit', prompt }, signal);
    if (!result) return NOTHING;
    return {
      ...(result.decision === 'block' ? { blocked: result.reason ?? 'blocked by a UserPromptSubmit hook' } : {}),
      context: result.context,
      ...(result.stop ? { stop: result.stop.reason } : {}),
    };
  }

  /**
   * The agent is about to end its turn. A block makes it go on with the reason, once per stop: the caller passes
   * `stopHookActive` true on the stop that follows a continuation, and does not continue a second time.
   */
  async stopping(
    lastAssistantMessage: string,
    stopHookActive: boolean,
    subagent?: HookSubagent,
    signal?: AbortSignal,
  ): Promise<StopVerdict> {
    const event: HookEvent = subagent
      ? { name: 'SubagentStop', stopHookActive, lastAssistantMessage, ...subagent }
      : { name: 'Stop', stopHookActive, lastAssistantMessage };
    const { name } = event;
    const result = await this.fire(event, signal);
    if (result?.stop) this.stopped(name, result.stop.reason);
    if (!result || result.stop || result.decision !== 'block') return {};
    return { continueWith: result.reason ?? `a ${name} hook asked to go on` };
  }

  /** SessionStart: the context (plain stdout or additionalContext) goes with the session's next prompt. */
  async sessionStarted(source: SessionStartSource, model?: string): Promise<readonly string[]> {
    const result = await this.fire({ name: 'SessionStart', source, ...(model ? { model } : {}) });
    return result?.context ?? [];
  }

  async sessionEnded(reason: SessionEndReason): Promise<void> {
    await this.fire({ name: 'SessionEnd', reason });
  }

  async compacting(trigger: 'manual' | 'auto', customInstructions = ''): Promise<void> {
    await this.fire({ name: 'PreCompact', trigger, customInstructions });
  }

  async notification(message: string, notificationType: string): Promise<void> {
    await this.fire({ name: 'Notification', message, notificationType });
  }

  /** The hooks in effect with their last outcome, and those held back or disabled (for `/hooks`). */
  listing(): { entries: readonly HookListing[]; loaded: LoadedHooks } {
    return { entries: this.engine?.list() ?? [], loaded: this.loaded };
  }
}

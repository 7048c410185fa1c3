/**
 * The hook events mca fires, with Claude Code's names (DESIGN.md "Claude Code compatibility"), and what each one
 * carries. A leaf module: the settings loader, the engine and the driver's wiring all name events through it.
 */
import type { ToolEnvelope } from '../tools/registry/envelope.js';

export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export function isHookEventName(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** Events whose matcher is a regular expression over the tool name. */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
]);

export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact';
export type SessionEndReason = 'clear' | 'logout' | 'prompt_input_exit' | 'other';
export type CompactTrigger = 'manual' | 'auto';

/** A tool call as the engine needs it: mca's name and input (the engine shows it in Claude Code's names). */
export interface HookToolCall {
  readonly toolName: string;
  readonly toolInput: unknown;
  /** The call id (native tool_use id, or the generated `toolu_…` one). */
  readonly toolUseId: string;
}

/** The subagent a SubagentStop is about (Claude Code's `agent_id`, `agent_type`, `agent_transcript_path`). */
export interface HookSubagent {
  /** The Agent call's id: it names the run (and its transcript file). */
  readonly agentId: string;
  /** The subagent's type (its definition's name); SubagentStop matchers test it. */
  readonly agentType: string;
  /** The subagent's own transcript (`<session-id>.agents/<call-id>.jsonl` beside the session file). */
  readonly agentTranscriptPath: string;
}

/** One occurrence of an event, in mca's terms; hook-input.ts turns it into the stdin JSON. */
export type HookEvent =
  | ({ readonly name: 'PreToolUse' } & HookToolCall)
  | ({ readonly name: 'PermissionRequest' } & HookToolCall)
  | ({ readonly name: 'PostToolUse'; readonly envelope: ToolEnvelope } & HookToolCall)
  | ({ readonly name: 'PostToolUseFailure'; readonly error: string; readonly isInterrupt?: boolean } & HookToolCall)
  | { readonly name: 'UserPromptSubmit'; readonly prompt: string }
  | { readonly name: 'Stop'; readonly stopHookActive: boolean; readonly lastAssistantMessage: string }
  | ({
      readonly name: 'SubagentStop';
      readonly stopHookActive: boolean;
      readonly lastAssistantMessage: string;
    } & HookSubagent)
  | { readonly name: 'SessionStart'; readonly source: SessionStartSource; readonly model?: string }
  | { readonly name: 'SessionEnd'; readonly reason: SessionEndReason }
  | { readonly name: 'PreCompact'; readonly trigger: CompactTrigger; readonly customInstructions: string }
  | {
      readonly name: 'Notification';
      readonly message: string;
      readonly notificationType: string;
      readonly title?: string;
    };

/** The session a hook runs for: the base fields of every event's stdin JSON. */
export interface HookSessionInfo {
  readonly sessionId: string;
  /** mca's session file (JSONL of mca's records, not Claude Code's transcript format; README says so). */
  readonly transcriptPath: string;
  readonly cwd: string;
  /** The permission mode in force when the event fires (Claude Code's names: default, acceptEdits, plan, …). */
  readonly permissionMode: string;
}

/** The string an event's matcher is tested against, or undefined when the event has no matcher (all match). */
export function matchTargetOf(event: HookEvent): string | undefined {
  switch (event.name) {
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return event.toolName;
    case 'SessionStart':
      return event.source;
    case 'SessionEnd':
      return event.reason;
    case 'PreCompact':
      return event.trigger;
    case 'Notification':
      return event.notificationType;
    case 'SubagentStop':
      return event.agentType;
    default:
      return undefined;
  }
}

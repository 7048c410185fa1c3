/**
 * The JSON a hook reads on stdin, with Claude Code's field names: the base fields (session_id, transcript_path,
 * cwd, hook_event_name, permission_mode) and the event's own. Tool inputs and results are shown in Claude Code's
 * names through the one mapping module (claude-code/tool-input.ts), so a hook written for Claude Code parses them.
 */
import { toClaudeCodeInput } from '../claude-code/tool-input.js';
import { toClaudeCodeResponse } from '../claude-code/tool-response.js';
import type { HookEvent, HookSessionInfo } from './hook-events.js';

export type HookInputJson = Record<string, unknown>;

function eventFields(event: HookEvent, root: string): HookInputJson {
  switch (event.name) {
    case 'PreToolUse':
    case 'PermissionRequest':
      return {
        tool_name: event.toolName,
        tool_input: toClaudeCodeInput(event.toolName, event.toolInput, root),
        tool_use_id: event.toolUseId,
      };
    case 'PostToolUse':
      return {
        tool_name: event.toolName,
        tool_input: toClaudeCodeInput(event.toolName, event.toolInput, root),
        tool_response: toClaudeCodeResponse(event.toolName, event.toolInput, event.envelope, root),
        tool_use_id: event.toolUseId,
      };
    case 'PostToolUseFailure':
      return {
        tool_name: event.toolName,
        tool_input: toClaudeCodeInput(event.toolName, event.toolInput, root),
        tool_use_id: event.toolUseId,
        error: event.error,
        is_interrupt: event.isInterrupt === true,
      };
    case 'UserPromptSubmit':
      return { prompt: event.prompt };
    case 'Stop':
      return { stop_hook_active: event.stopHookActive, last_assistant_message: event.lastAssistantMessage };
    case 'SubagentStop':
      return {
        stop_hook_active: event.stopHookActive,
        last_assistant_message: event.lastAssistantMessage,
        agent_id: event.agentId,
        agent_type: event.agentType,
        agent_transcript_path: event.agentTranscriptPath,
      };
    case 'SessionStart':
      return { source: event.source, ...(event.model === undefined ? {} : { model: event.model }) };
    case 'SessionEnd':
      return { reason: event.reason };
    case 'PreCompact':
      return { trigger: event.trigger, custom_instructions: event.customInstructions };
    case 'Notification':
      return {
        message: event.message,
        notification_type: event.notificationType,
        ...(event.title === undefined ? {} : { title: event.title }),
      };
  }
}

/** The stdin JSON object for `event` in `session`; `projectRoot` resolves file paths to absolute ones. */
export function hookInput(event: HookEvent, session: HookSessionInfo, projectRoot: string): HookInputJson {
  return {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    permission_mode: session.permissionMode,
    hook_event_name: event.name,
    ...eventFields(event, projectRoot),
  };
}

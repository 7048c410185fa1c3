/** A tool call the permission rules or the mode refused, as the `-p` formats report it. */
import type { AgentEvent } from '../loop/events.js';

export interface PermissionDenial {
  tool: string;
  input: unknown;
  reason: string;
}

export function permissionDenialOf(event: AgentEvent): PermissionDenial | undefined {
  if (event.type !== 'tool_end' || event.result.error?.code !== 'PERMISSION_DENIED') return undefined;
  return { tool: event.tool, input: event.input, reason: event.result.error.message };
}

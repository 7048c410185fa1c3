/**
 * The background tasks' pending notices, for the parts that append them to what the model reads next (each tool
 * result, the next user message) without loading the task registry: background-tasks.ts hands its reader here when
 * it loads, and before that there is no task and so no notice.
 */
import type { ToolEnvelope } from '../registry/envelope.js';

let takeReminder: (() => string) | undefined;

/** Called once by background-tasks.ts: how to take the pending notices as one reminder ('' when none). */
export function setTaskNoticeSource(take: () => string): void {
  takeReminder = take;
}

/** Pending notices as one `<system-reminder>`; '' when none (or the task registry never loaded). */
export function pendingTaskNotices(): string {
  return takeReminder?.() ?? '';
}

/** `envelope` with the pending task notices appended to its text (unchanged when none). */
export function withPendingTaskNotices(envelope: ToolEnvelope): ToolEnvelope {
  const reminder = pendingTaskNotices();
  return reminder === '' ? envelope : { ...envelope, text: `${envelope.text}\n\n${reminder}` };
}

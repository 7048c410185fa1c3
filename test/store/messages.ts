import type { Message } from '../../src/context/message.js';

/** A history message with a fixed timestamp, for session tests. */
export function msg(
  role: Message['role'],
  content: string,
  round: number,
  extra: Partial<Message['metadata']> = {},
): Message {
  return { role, content, metadata: { round, ts: '2025-01-01T00:00:00.000Z', ...extra } };
}

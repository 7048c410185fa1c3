/**
 * The control protocol's two directions over stdout (Claude Code's stream-json control messages): answers to the
 * host's `control_request`s (`control_response` success or error), and mca's own requests to the host
 * (`can_use_tool`, …) whose answers come back as `control_response` lines with the same `request_id`.
 */
import { randomUUID } from 'node:crypto';

export interface ControlRequestLine {
  type: 'control_request';
  request_id: string;
  request: { subtype: string; [field: string]: unknown };
}

export interface ControlResponseLine {
  type: 'control_response';
  response:
    | { subtype: 'success'; request_id: string; response?: Record<string, unknown> }
    | { subtype: 'error'; request_id: string; error: string };
}

/** A host's answer to one of mca's requests, or why there is none. */
export type HostAnswer = { ok: true; response: Record<string, unknown> } | { ok: false; error: string };

export class ControlChannel {
  private readonly pending = new Map<string, (answer: HostAnswer) => void>();

  constructor(private readonly write: (line: object) => void) {}

  succeed(requestId: string, response: Record<string, unknown> = {}): void {
    this.write({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });
  }

  fail(requestId: string, error: string): void {
    this.write({ type: 'control_response', response: { subtype: 'error', request_id: requestId, error } });
  }

  /** Sends a request to the host; resolves with its answer (or an error when the channel closes first). */
  request(request: { subtype: string; [field: string]: unknown }): { id: string; answer: Promise<HostAnswer> } {
    const id = randomUUID();
    const answer = new Promise<HostAnswer>((resolve) => this.pending.set(id, resolve));
    this.write({ type: 'control_request', request_id: id, request });
    return { id, answer };
  }

  /** A `control_response` line from the host: true when it answered one of mca's requests. */
  answer(line: ControlResponseLine): boolean {
    const id = line.response?.request_id;
    const resolve = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (!resolve) return false;
    this.pending.delete(id);
    if (line.response.subtype === 'success') resolve({ ok: true, response: line.response.response ?? {} });
    else resolve({ ok: false, error: String(line.response.error ?? 'the host answered with an error') });
    return true;
  }

  /** Withdraws one open request (the turn was interrupted) and tells the host. */
  cancel(id: string, reason: string): void {
    const resolve = this.pending.get(id);
    if (!resolve) return;
    this.pending.delete(id);
    this.write({ type: 'control_cancel_request', request_id: id });
    resolve({ ok: false, error: reason });
  }

  /** stdin closed: no answer can come any more. */
  closeAll(reason: string): void {
    for (const [id, resolve] of this.pending) {
      this.pending.delete(id);
      resolve({ ok: false, error: reason });
    }
  }
}

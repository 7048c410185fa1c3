/**
 * Backpressure for a client's requests. The SDK reads every message as it arrives and runs its handler at once, so
 * a client that floods valid requests (thousands of `session/new`, `session/load`, `session/list`, prompts) would
 * have them all in flight together: runtimes, session files and replies without bound, and a running turn starved
 * of the event loop. The gate admits at most `maxPending` requests in flight per connection and `maxPerKey` per
 * session (and per kind of session-less request); the excess is answered at once with JSON-RPC error -32800
 * ("request cancelled", which ACP also uses for "resource constraints") saying the limit, and costs nothing after.
 */
import { AcpError } from './acp-error.js';

/** Requests in flight per connection (a running prompt counts until it answers). */
export const MAX_PENDING_REQUESTS = 64;
/** Requests in flight per session, and per kind of request without one (`session/new`, `session/list`). */
export const MAX_PENDING_PER_SESSION = 8;

export class RequestGate {
  private total = 0;
  private readonly perKey = new Map<string, number>();

  constructor(
    private readonly maxPending = MAX_PENDING_REQUESTS,
    private readonly maxPerKey = MAX_PENDING_PER_SESSION,
  ) {}

  /** Runs `work` if the limits leave room, else refuses it without running it. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const held = this.perKey.get(key) ?? 0;
    if (this.total >= this.maxPending) {
      throw new AcpError(
        'ACP_OVERLOADED',
        `mca has ${this.total} requests pending (the limit is ${this.maxPending}); this one was refused, send it again later`,
      );
    }
    if (held >= this.maxPerKey) {
      throw new AcpError(
        'ACP_OVERLOADED',
        `${key} has ${held} requests pending (the limit is ${this.maxPerKey}); this one was refused, send it again later`,
      );
    }
    this.total += 1;
    this.perKey.set(key, held + 1);
    try {
      return await work();
    } finally {
      this.total -= 1;
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left === 0) this.perKey.delete(key);
      else this.perKey.set(key, left);
    }
  }
}

/**
 * What a host learns about the session's state between messages, as Claude Code 2.1.330+ tells it (golden
 * sequences: test/fixtures/claude-code-stream/): `system`/`session_state_changed` (`running` once a message is
 * taken, `requires_action` while a `can_use_tool` waits for the host, `idle` after the last result: the signal
 * Zed's adapter ends a prompt on) only when CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS is set, and `command_lifecycle`
 * (`queued`, `started`, `completed`) for each user message that carried its own uuid, always.
 */
import { randomUUID } from 'node:crypto';
import type { CcCommandLifecycle, CcSystemLine } from '../claude-code/types.js';

export { emitsSessionState } from '../claude-code/system.js';

export type SessionState = 'idle' | 'running' | 'requires_action';

export class SessionStateLines {
  private state: SessionState = 'idle';
  /** can_use_tool requests the host has not answered yet. */
  private readonly asking = new Set<string>();

  constructor(
    private readonly write: (line: CcSystemLine | CcCommandLifecycle) => void,
    private readonly sessionId: () => string,
    private readonly emitState: boolean,
  ) {}

  /** A user message arrived (`uuid`: the host's own, if it gave one). */
  queued(uuid: string | undefined): void {
    this.set('running');
    this.lifecycle(uuid, 'queued');
  }

  started(uuid: string | undefined): void {
    this.lifecycle(uuid, 'started');
  }

  /** A message's result is out; `idle` when nothing else waits. */
  completed(uuid: string | undefined, nothingWaits: boolean): void {
    this.lifecycle(uuid, 'completed');
    if (nothingWaits && this.asking.size === 0) this.set('idle');
  }

  /** mca asks the host about a call (the line follows this). */
  asked(requestId: string): void {
    this.asking.add(requestId);
    this.set('requires_action');
  }

  /** The host answered (or the request was withdrawn). */
  answered(requestId: string): void {
    if (!this.asking.delete(requestId)) return;
    if (this.asking.size === 0 && this.state === 'requires_action') this.set('running');
  }

  /** Whether a can_use_tool waits for the host's answer. */
  get waitingForHost(): boolean {
    return this.asking.size > 0;
  }

  /** The host closed its input: no question can be answered any more. */
  forgetQuestions(): void {
    this.asking.clear();
  }

  private set(state: SessionState): void {
    if (state === this.state) return;
    this.state = state;
    if (!this.emitState) return;
    this.write({
      type: 'system',
      subtype: 'session_state_changed',
      state,
      uuid: randomUUID(),
      session_id: this.sessionId(),
    });
  }

  private lifecycle(uuid: string | undefined, state: CcCommandLifecycle['state']): void {
    if (uuid === undefined) return;
    this.write({
      type: 'command_lifecycle',
      command_uuid: uuid,
      state,
      uuid: randomUUID(),
      session_id: this.sessionId(),
    });
  }
}

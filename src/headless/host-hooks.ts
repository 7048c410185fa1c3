/**
 * The SDK host's hook callbacks (initialize `hooks`): registered in the session's hook engine as callback hooks
 * (src/hooks/hook-callbacks.ts), each run being a `hook_callback` control request `{callback_id, input,
 * tool_use_id}` whose answer the engine reads as a command hook's JSON output.
 *
 * - A request unanswered within the hook's timeout is withdrawn with `control_cancel_request`.
 * - The host's `interrupt` withdraws every open request the same way at once; the hook then answers as one that
 *   stopped the run (`continue: false`), so a guarded tool call does not run and a prompt is not sent: the turn
 *   ends as interrupted instead of waiting for the callback.
 * - A matcher's `onFailure: "block"` (SDK 0.3.x): when its callback fails (it threw, or did not answer in time),
 *   the action its event guards is refused with the failure as the reason: a PreToolUse call is denied, a
 *   PermissionRequest denied, a UserPromptSubmit prompt blocked. Other events have no action left to refuse and
 *   go on as with `"continue"` (the default: a notice, the run goes on).
 * - Matcher options mca has no meaning for are named in one warning line.
 */
import { parseCallbackHooks, type HookCallbackAnswer, type HookCallbackRunner } from '../hooks/hook-callbacks.js';
import type { HookEngine } from '../hooks/hook-engine.js';
import type { ControlChannel } from './control-channel.js';
import { isRecord } from '../text/json-guards.js';

/** The matcher fields mca reads; any other is named in one warning. */
const KNOWN_OPTIONS = new Set(['matcher', 'hookCallbackIds', 'timeout', 'onFailure']);
/** The stop reason of a callback the host's interrupt withdrew (the headless front reads it as an interrupt). */
export const INTERRUPTED = 'Interrupted by the host.';

/** What a failed `onFailure: "block"` callback answers in its event's terms; undefined: nothing to refuse. */
function blockingAnswer(event: unknown, why: string): Record<string, unknown> | undefined {
  const reason = `An SDK hook set to block on failure failed: ${why}`;
  switch (event) {
    case 'PreToolUse':
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: reason,
        },
      };
    case 'PermissionRequest':
      return {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: reason } },
      };
    case 'UserPromptSubmit':
      return { decision: 'block', reason };
    default:
      return undefined;
  }
}

export class HostHookCallbacks {
  /** The open `hook_callback` requests: each function withdraws one as interrupted. */
  private readonly open = new Set<() => void>();
  /** The callback ids whose matcher set `onFailure: "block"`. */
  private readonly blocking = new Set<string>();

  constructor(private readonly channel: ControlChannel) {}

  /** The host's `interrupt`: every open callback request is withdrawn now; returns how many. */
  interrupt(): number {
    const withdraw = [...this.open];
    this.open.clear();
    for (const each of withdraw) each();
    return withdraw.length;
  }

  /**
   * Registers the host's `hooks` field; returns the warnings (entries skipped, options mca does not honour, or
   * every callback when hooks are turned off by `disableAllHooks`).
   */
  register(raw: unknown, engine: HookEngine | undefined, disabledBy: string | undefined): string[] {
    const warnings: string[] = [];
    const hooks = parseCallbackHooks(raw, warnings);
    if (hooks.length === 0) return warnings;
    if (!engine) {
      const why = disabledBy ? `disableAllHooks is true in ${disabledBy}` : 'hooks are not available';
      return [...warnings, `the SDK host's ${hooks.length} hook callback(s) are not used: ${why}`];
    }
    this.blocking.clear();
    const unknown = new Set<string>();
    for (const groups of Object.values(isRecord(raw) ? raw : {})) {
      if (!Array.isArray(groups)) continue;
      for (const group of groups as unknown[]) {
        if (!isRecord(group)) continue;
        for (const key of Object.keys(group)) if (!KNOWN_OPTIONS.has(key)) unknown.add(key);
        const onFailure = group.onFailure;
        if (onFailure !== undefined && onFailure !== 'continue' && onFailure !== 'block') {
          warnings.push(
            `ignored onFailure ${JSON.stringify(onFailure)} of the SDK host's hooks: it must be "continue" or "block"`,
          );
        }
        if (onFailure === 'block' && Array.isArray(group.hookCallbackIds)) {
          for (const id of group.hookCallbackIds) if (typeof id === 'string') this.blocking.add(id);
        }
      }
    }
    if (unknown.size > 0) {
      warnings.push(`mca does not honour these options of the SDK host's hook matchers: ${[...unknown].join(', ')}`);
    }
    engine.addCallbacks(hooks, this.runner());
    return warnings;
  }

  private runner(): HookCallbackRunner {
    return async ({ callbackId, input, toolUseId, timeoutMs, signal }) => {
      const { id, answer } = this.channel.request({
        subtype: 'hook_callback',
        callback_id: callbackId,
        input,
        ...(toolUseId === undefined ? {} : { tool_use_id: toolUseId }),
      });
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      let withdraw: (() => void) | undefined;
      const stopped = new Promise<HookCallbackAnswer | 'interrupted'>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
        timer.unref();
        withdraw = () => resolve('interrupted');
        this.open.add(withdraw);
        onAbort = () => resolve({ kind: 'aborted' });
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
      const answered = answer.then((reply): HookCallbackAnswer =>
        reply.ok ? { kind: 'answer', output: reply.response } : { kind: 'error', message: reply.error },
      );
      const outcome = await Promise.race([answered, stopped]);
      clearTimeout(timer);
      if (withdraw) this.open.delete(withdraw);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (outcome === 'interrupted') {
        this.channel.cancel(id, 'interrupted');
        return { kind: 'answer', output: { continue: false, stopReason: INTERRUPTED } };
      }
      if (outcome.kind === 'timeout' || outcome.kind === 'aborted') this.channel.cancel(id, outcome.kind);
      if ((outcome.kind === 'error' || outcome.kind === 'timeout') && this.blocking.has(callbackId)) {
        const why = outcome.kind === 'error' ? outcome.message : `no answer within ${Math.round(timeoutMs / 1000)} s`;
        const output = blockingAnswer(input.hook_event_name, why);
        if (output) return { kind: 'answer', output };
      }
      return outcome;
    };
  }
}

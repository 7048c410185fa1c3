/**
 * The SDK host's hook callbacks (initialize `hooks`): registered in the session's hook engine as callback hooks
 * (src/hooks/hook-callbacks.ts), each run being a `hook_callback` control request `{callback_id, input,
 * tool_use_id}` whose answer the engine reads as a command hook's JSON output. A request unanswered within the
 * hook's timeout (or when the turn is interrupted) is withdrawn with `control_cancel_request`.
 */
import { parseCallbackHooks, type HookCallbackAnswer, type HookCallbackRunner } from '../hooks/hook-callbacks.js';
import type { HookEngine } from '../hooks/hook-engine.js';
import type { ControlChannel } from './control-channel.js';

export function hookCallbackRunner(channel: ControlChannel): HookCallbackRunner {
  return async ({ callbackId, input, toolUseId, timeoutMs, signal }) => {
    const { id, answer } = channel.request({
      subtype: 'hook_callback',
      callback_id: callbackId,
      input,
      ...(toolUseId === undefined ? {} : { tool_use_id: toolUseId }),
    });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<HookCallbackAnswer>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
      timer.unref();
      onAbort = () => resolve({ kind: 'aborted' });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    const answered = answer.then((reply): HookCallbackAnswer =>
      reply.ok ? { kind: 'answer', output: reply.response } : { kind: 'error', message: reply.error },
    );
    const outcome = await Promise.race([answered, stopped]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    if (outcome.kind === 'timeout' || outcome.kind === 'aborted') channel.cancel(id, outcome.kind);
    return outcome;
  };
}

/**
 * Registers the host's `hooks` field; returns the warnings (entries skipped, or every callback when hooks are
 * turned off by `disableAllHooks`).
 */
export function registerHostHooks(
  raw: unknown,
  engine: HookEngine | undefined,
  channel: ControlChannel,
  disabledBy: string | undefined,
): string[] {
  const warnings: string[] = [];
  const hooks = parseCallbackHooks(raw, warnings);
  if (hooks.length === 0) return warnings;
  if (!engine) {
    const why = disabledBy ? `disableAllHooks is true in ${disabledBy}` : 'hooks are not available';
    return [...warnings, `the SDK host's ${hooks.length} hook callback(s) are not used: ${why}`];
  }
  engine.addCallbacks(hooks, hookCallbackRunner(channel));
  return warnings;
}

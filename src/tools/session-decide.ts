/**
 * The decision point a call itself passed, for a tool that makes calls of its own: the Agent tool's nested
 * session has its calls judged where the session's are, never by the tool. The registry records it for each
 * call's context; a tool never uses it to ask about its own work (that is `prepare`'s request).
 */
import type { DecideFn } from './define-tool.js';
import type { ToolContext } from './tool-context.js';

const decides = new WeakMap<ToolContext, DecideFn>();

/** Called by the registry for every call it runs. */
export function recordSessionDecide(ctx: ToolContext, decide: DecideFn): void {
  decides.set(ctx, decide);
}

/** The decision point `ctx`'s call passed; undefined for a context the registry did not make. */
export function sessionDecideOf(ctx: ToolContext): DecideFn | undefined {
  return decides.get(ctx);
}

/**
 * The decision point a call itself passed, for a tool that makes calls of its own: the Agent tool's nested
 * session has its calls judged where the session's are, never by the tool. The registry records it for each
 * call's context; a tool never uses it to ask about its own work (that is `prepare`'s request).
 */
import type { DecideFn, ToolCall } from './define-tool.js';
import type { ToolEnvelope } from './envelope.js';
import type { ToolContext } from './tool-context.js';

/** The step after an allowed call ran (PostToolUse hooks): RunContext.afterRun. */
export type AfterRunFn = (call: ToolCall, envelope: ToolEnvelope) => Promise<ToolEnvelope>;

const decides = new WeakMap<ToolContext, DecideFn>();
const afterRuns = new WeakMap<ToolContext, AfterRunFn>();

/** Called by the registry for every call it runs (with the session's after-run step when it has one). */
export function recordSessionDecide(ctx: ToolContext, decide: DecideFn, afterRun?: AfterRunFn): void {
  decides.set(ctx, decide);
  if (afterRun) afterRuns.set(ctx, afterRun);
}

/** The after-run step `ctx`'s call has (PostToolUse hooks): a nested session's calls get it too. */
export function sessionAfterRunOf(ctx: ToolContext): AfterRunFn | undefined {
  return afterRuns.get(ctx);
}

/** The decision point `ctx`'s call passed; undefined for a context the registry did not make. */
export function sessionDecideOf(ctx: ToolContext): DecideFn | undefined {
  return decides.get(ctx);
}

/**
 * What one hook's run means, by Claude Code's rules:
 * - exit 0: stdout is parsed as JSON when it is a JSON object; otherwise it is plain text, which becomes context
 *   for the model on UserPromptSubmit and SessionStart and is not shown anywhere else;
 * - exit 2: a block; stderr is the reason (the model reads it for tool events and Stop, the user for a prompt);
 *   stdout is not read;
 * - any other exit, a timeout, a failure to start: a notice for the user, and the run goes on.
 * Hostile output (binary, oversized, escape sequences, broken JSON) never fails the run: it is named in a notice and
 * whatever could be read safely is used.
 */
import type { HookCommand } from './hook-config.js';
import type { HookEventName } from './hook-events.js';
import type { CapturedStream, HookProcessResult } from './hook-process.js';
import { HOOK_OUTPUT_MAX_BYTES } from './hook-process.js';
import { safeText, shortCommand } from './hook-text.js';

/** allow/deny/ask: a permission answer (PreToolUse, PermissionRequest); block: the event's action is refused. */
export type HookDecision = 'allow' | 'deny' | 'ask' | 'block';

export type HookRunKind = 'success' | 'blocked' | 'failed' | 'timeout' | 'aborted' | 'not-started';

export interface HookRunOutcome {
  readonly hook: HookCommand;
  readonly kind: HookRunKind;
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly decision?: HookDecision;
  /** Why (permissionDecisionReason, reason, or exit 2's stderr), safe to show. */
  readonly reason?: string;
  /** The tool input the hook wants instead, in Claude Code's names (mapped back by the engine). */
  readonly updatedInput?: Record<string, unknown>;
  /** Text for the model (additionalContext, or plain stdout where Claude Code adds it). */
  readonly context?: string;
  /** `continue: false`: the agent stops after this event; the text is shown to the user. */
  readonly stop?: string;
  /** `systemMessage`: shown to the user. */
  readonly systemMessage?: string;
  /** Lines for the user about what went wrong with this hook. */
  readonly notices: readonly string[];
}

/** Events where a plain stdout is context for the model. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);
/** Events an exit 2 or `decision: "block"` blocks. */
const BLOCKABLE: ReadonlySet<HookEventName> = new Set([
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
]);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface DecodedText {
  text: string;
  binary: boolean;
  truncated: boolean;
}

function decode(stream: CapturedStream): DecodedText {
  const binary = stream.bytes.includes(0);
  return {
    text: binary ? '' : stream.bytes.toString('utf8'),
    binary,
    truncated: stream.totalBytes > HOOK_OUTPUT_MAX_BYTES,
  };
}

function streamNotices(label: string, name: string, stream: CapturedStream, decoded: DecodedText): string[] {
  const notices: string[] = [];
  if (decoded.binary) notices.push(`${label} printed binary ${name} (${stream.totalBytes} bytes); it was ignored`);
  else if (decoded.truncated) {
    notices.push(
      `${label} printed ${stream.totalBytes} bytes on ${name}; only the first ${HOOK_OUTPUT_MAX_BYTES} were read`,
    );
  }
  return notices;
}

/** The JSON answer's fields, type-checked; a field of the wrong type is dropped with a notice. */
interface JsonAnswer {
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  decision?: string;
  reason?: string;
  permissionDecision?: string;
  permissionDecisionReason?: string;
  updatedInput?: Json;
  additionalContext?: string;
  /** PermissionRequest's `hookSpecificOutput.decision`. */
  requestDecision?: Json;
}

function field<T>(
  source: Json,
  key: string,
  ok: (value: unknown) => value is T,
  what: string,
  notices: string[],
  label: string,
): T | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (ok(value)) return value;
  notices.push(`${label}: ignored "${key}" in its JSON output: it must be ${what}`);
  return undefined;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

function readAnswer(json: Json, label: string, notices: string[]): JsonAnswer {
  const specific = field(json, 'hookSpecificOutput', isObject, 'an object', notices, label) ?? {};
  const answer: JsonAnswer = {};
  const put = <K extends keyof JsonAnswer>(key: K, value: JsonAnswer[K] | undefined): void => {
    if (value !== undefined) answer[key] = value;
  };
  put('continue', field(json, 'continue', isBoolean, 'true or false', notices, label));
  put('stopReason', field(json, 'stopReason', isString, 'a string', notices, label));
  put('systemMessage', field(json, 'systemMessage', isString, 'a string', notices, label));
  put('decision', field(json, 'decision', isString, 'a string', notices, label));
  put('reason', field(json, 'reason', isString, 'a string', notices, label));
  put('permissionDecision', field(specific, 'permissionDecision', isString, 'a string', notices, label));
  put('permissionDecisionReason', field(specific, 'permissionDecisionReason', isString, 'a string', notices, label));
  put('updatedInput', field(specific, 'updatedInput', isObject, 'an object', notices, label));
  put('additionalContext', field(specific, 'additionalContext', isString, 'a string', notices, label));
  if (isObject(specific.decision)) answer.requestDecision = specific.decision;
  return answer;
}

/** The permission answer of a PreToolUse JSON (`permissionDecision`, or the older `decision: approve|block`). */
function preToolDecision(answer: JsonAnswer, label: string, notices: string[]): HookDecision | undefined {
  const value = answer.permissionDecision;
  if (value === 'allow' || value === 'deny' || value === 'ask') return value;
  if (value !== undefined) notices.push(`${label}: ignored permissionDecision ${JSON.stringify(value)}`);
  if (answer.decision === 'approve') return 'allow';
  if (answer.decision === 'block') return 'deny';
  return undefined;
}

function permissionRequestDecision(answer: JsonAnswer): { decision?: HookDecision; reason?: string } {
  const behavior = answer.requestDecision?.behavior;
  if (behavior !== 'allow' && behavior !== 'deny') return {};
  const message = answer.requestDecision?.message;
  return { decision: behavior, ...(typeof message === 'string' ? { reason: message } : {}) };
}

interface Interpreted {
  decision?: HookDecision;
  reason?: string;
  updatedInput?: Json;
  context?: string;
  stop?: string;
  systemMessage?: string;
}

function interpretSuccess(event: HookEventName, stdout: string, label: string, notices: string[]): Interpreted {
  const trimmed = stdout.trim();
  if (trimmed === '') return {};
  let json: unknown;
  if (trimmed.startsWith('{')) {
    try {
      json = JSON.parse(trimmed);
    } catch (error) {
      notices.push(`${label} printed invalid JSON (${safeText((error as Error).message, 200)}); read as plain text`);
    }
  }
  if (!isObject(json)) return STDOUT_IS_CONTEXT.has(event) ? { context: safeText(trimmed) } : {};
  const answer = readAnswer(json, label, notices);
  const out: Interpreted = {};
  if (answer.continue === false) out.stop = safeText(answer.stopReason ?? '');
  if (answer.systemMessage) out.systemMessage = safeText(answer.systemMessage);
  if (answer.additionalContext) out.context = safeText(answer.additionalContext);
  if (event === 'PreToolUse') {
    const decision = preToolDecision(answer, label, notices);
    if (decision) out.decision = decision;
    const reason = answer.permissionDecisionReason ?? answer.reason;
    if (reason) out.reason = safeText(reason);
    if (answer.updatedInput) out.updatedInput = answer.updatedInput;
  } else if (event === 'PermissionRequest') {
    const { decision, reason } = permissionRequestDecision(answer);
    if (decision) out.decision = decision;
    if (reason) out.reason = safeText(reason);
    const updated = answer.requestDecision?.updatedInput;
    if (decision === 'allow' && isObject(updated)) out.updatedInput = updated;
  } else if (BLOCKABLE.has(event) && answer.decision === 'block') {
    out.decision = 'block';
    out.reason = safeText(answer.reason ?? '');
  }
  return out;
}

/** One run's meaning for `event` (see the module comment). */
export function interpretRun(event: HookEventName, hook: HookCommand, run: HookProcessResult): HookRunOutcome {
  const label = `${event} hook ${shortCommand(hook.command)}`;
  const base = { hook, exitCode: run.exitCode, durationMs: run.durationMs };
  if (run.spawnError !== undefined) {
    return { ...base, kind: 'not-started', notices: [`${label} could not start: ${safeText(run.spawnError, 200)}`] };
  }
  if (run.timedOut) {
    return { ...base, kind: 'timeout', notices: [`${label} timed out after ${hook.timeoutSec} s and was stopped`] };
  }
  if (run.aborted) return { ...base, kind: 'aborted', notices: [] };
  const stdout = decode(run.stdout);
  const stderr = decode(run.stderr);
  const notices = streamNotices(label, 'stderr', run.stderr, stderr);
  const errorText = safeText(stderr.text.trim());
  if (run.exitCode === 2) {
    const reason = errorText || `blocked by ${label} (exit 2, no reason given on stderr)`;
    if (event === 'PreToolUse' || event === 'PermissionRequest') {
      return { ...base, kind: 'blocked', decision: 'deny', reason, notices };
    }
    if (BLOCKABLE.has(event)) return { ...base, kind: 'blocked', decision: 'block', reason, notices };
    return { ...base, kind: 'failed', notices: [...notices, `${label} exited with 2: ${reason}`] };
  }
  if (run.exitCode !== 0) {
    const how = run.exitCode === null ? 'was ended by a signal' : `failed (exit ${run.exitCode})`;
    return { ...base, kind: 'failed', notices: [...notices, `${label} ${how}${errorText ? `: ${errorText}` : ''}`] };
  }
  notices.push(...streamNotices(label, 'stdout', run.stdout, stdout));
  const interpreted = interpretSuccess(event, stdout.text, label, notices);
  const kind = interpreted.decision === 'deny' || interpreted.decision === 'block' ? 'blocked' : 'success';
  return { ...base, kind, ...interpreted, notices };
}

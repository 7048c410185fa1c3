/**
 * Hooks an Agent SDK host registers in its `initialize` request (`hooks: {Event: [{matcher, hookCallbackIds,
 * timeout}]}`): each id becomes one HookCommand with `callbackId` set, run by the engine through a
 * HookCallbackRunner (the headless front sends `hook_callback` to the host) instead of a process. The host's answer
 * is read exactly as a command hook's JSON stdout (hook-output.ts); an error answer is a failed hook (a notice, the
 * run goes on), no answer within the timeout a timed-out one. Entries that cannot be used are skipped with one
 * warning each, never a throw.
 */
import { DEFAULT_HOOK_TIMEOUT_SEC, type HookCommand } from './hook-config.js';
import { HOOK_EVENTS, isHookEventName } from './hook-events.js';
import type { HookProcessResult } from './hook-process.js';
import { HOOK_OUTPUT_MAX_BYTES } from './hook-process.js';
import { compileMatcher } from './matcher.js';
import { isRecord } from '../text/json-guards.js';

/** Where callback hooks say they come from (`/hooks`, notices). */
export const CALLBACK_SOURCE = 'the SDK host (initialize)';
/** A host cannot register more than this many callbacks (each is a round trip per matching event). */
export const MAX_CALLBACK_HOOKS = 200;
const MAX_ID_CHARS = 200;

/** The host's answer to one `hook_callback`, or why there is none. */
export type HookCallbackAnswer =
  | { kind: 'answer'; output: Record<string, unknown> }
  | { kind: 'error'; message: string }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

/** Sends one `hook_callback` to the host; resolves with its answer (never rejects). */
export type HookCallbackRunner = (request: {
  callbackId: string;
  input: Record<string, unknown>;
  toolUseId: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
}) => Promise<HookCallbackAnswer>;

/** The callback hooks of an initialize request's `hooks` field; `warnings` gets one line per skipped entry. */
export function parseCallbackHooks(raw: unknown, warnings: string[]): HookCommand[] {
  const warn = (key: string, why: string): void => void warnings.push(`ignored ${key} of the SDK host's hooks: ${why}`);
  if (raw === undefined || raw === null) return [];
  if (!isRecord(raw)) {
    warn('hooks', 'it must be an object keyed by event name');
    return [];
  }
  const hooks: HookCommand[] = [];
  for (const [event, groups] of Object.entries(raw)) {
    if (!isHookEventName(event)) {
      warn(event, `mca does not fire a "${event}" event (it fires ${HOOK_EVENTS.join(', ')})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      warn(event, 'it must be a list of {matcher, hookCallbackIds} entries');
      continue;
    }
    groups.forEach((group: unknown, index) => {
      const key = `${event}[${index}]`;
      if (!isRecord(group) || !Array.isArray(group.hookCallbackIds)) {
        return warn(key, 'an entry must be an object with a "hookCallbackIds" list');
      }
      const rawMatcher = typeof group.matcher === 'string' ? group.matcher : '';
      const matcher = rawMatcher.trim() === '*' ? '' : rawMatcher;
      const compiled = compileMatcher(matcher);
      if (!compiled.ok) return warn(`${key}.matcher`, `not a valid regular expression (${compiled.message})`);
      const timeout = group.timeout;
      const timeoutSec =
        typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0
          ? Math.min(timeout, 86_400)
          : DEFAULT_HOOK_TIMEOUT_SEC;
      group.hookCallbackIds.forEach((id: unknown, idIndex) => {
        if (typeof id !== 'string' || id === '' || id.length > MAX_ID_CHARS) {
          return warn(`${key}.hookCallbackIds[${idIndex}]`, 'a callback id must be a short non-empty string');
        }
        if (hooks.length >= MAX_CALLBACK_HOOKS) {
          return warn(`${key}.hookCallbackIds[${idIndex}]`, `more than ${MAX_CALLBACK_HOOKS} callbacks`);
        }
        hooks.push({
          event,
          matcher,
          command: `SDK hook callback ${id}`,
          timeoutSec,
          source: CALLBACK_SOURCE,
          scope: 'user',
          key: `hooks.${key}.hookCallbackIds[${idIndex}]`,
          callbackId: id,
        });
      });
    });
  }
  return hooks;
}

function captured(text: string): HookProcessResult['stdout'] {
  const bytes = Buffer.from(text, 'utf8');
  return { bytes: bytes.subarray(0, HOOK_OUTPUT_MAX_BYTES), totalBytes: bytes.length };
}

/**
 * The host's answer as the run of a command hook would have ended: an answer is exit 0 with the JSON on stdout, an
 * error answer exit 1 with the message on stderr, so hook-output.ts gives both the same meaning.
 */
export function callbackRunResult(answer: HookCallbackAnswer, durationMs: number): HookProcessResult {
  const base = { stdout: captured(''), stderr: captured(''), timedOut: false, aborted: false, durationMs };
  switch (answer.kind) {
    case 'answer':
      return { ...base, exitCode: 0, stdout: captured(JSON.stringify(answer.output)) };
    case 'error':
      return { ...base, exitCode: 1, stderr: captured(`the host answered with an error: ${answer.message}`) };
    case 'timeout':
      return { ...base, exitCode: null, timedOut: true };
    case 'aborted':
      return { ...base, exitCode: null, aborted: true };
  }
}

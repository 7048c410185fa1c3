/**
 * The `system` lines Claude Code 2.1.330+ writes for what happens around the model's replies, made from mca's
 * AgentEvents (golden shapes: test/fixtures/claude-code-stream/): `api_retry` while a request is retried, `status`
 * (`requesting` before each model request with partial messages; `compacting`, then `null` with `compact_result`,
 * around a compaction) and `compact_boundary` after a compaction that shrank the conversation.
 */
import { sessionEnvironment } from '../config/child-environment.js';
import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../loop/events.js';
import type { HookRunReport } from '../hooks/hook-engine.js';
import type { CcApiRetryCategory, CcSystemLine } from './types.js';

type Without<T> = T extends unknown ? Omit<T, 'uuid' | 'session_id'> : never;
/** A line before its envelope (uuid, session_id). */
export type CcSystemBody = Without<CcSystemLine>;

/** Claude Code's category of a failed request, from its HTTP status (null: no response, e.g. a timeout). */
export function retryCategory(status: number | undefined): CcApiRetryCategory {
  if (status === undefined) return 'unknown';
  if (status === 529) return 'overloaded';
  if (status === 429) return 'rate_limit';
  if (status === 401) return 'authentication_failed';
  if (status === 404) return 'model_not_found';
  if (status === 400 || status === 413) return 'invalid_request';
  if (status >= 500) return 'server_error';
  return 'unknown';
}

/** The Claude Code system lines one event makes (before their envelope). */
export function claudeCodeSystemLines(event: AgentEvent, options: { partial: boolean }): CcSystemBody[] {
  switch (event.type) {
    case 'retry':
      return [
        {
          type: 'system',
          subtype: 'api_retry',
          attempt: event.attempt,
          max_retries: event.maxRetries ?? event.attempt,
          retry_delay_ms: Math.round(event.delayMs),
          error_status: event.status ?? null,
          error: retryCategory(event.status),
        },
      ];
    case 'step_start':
      return options.partial ? [{ type: 'system', subtype: 'status', status: 'requesting' }] : [];
    case 'compaction_start':
      return [{ type: 'system', subtype: 'status', status: 'compacting' }];
    case 'compaction_end': {
      // A summary that failed or timed out still drops the oldest rounds (a boundary, with `failed`).
      const summarized = event.outcome === 'summary';
      const done: CcSystemBody = {
        type: 'system',
        subtype: 'status',
        status: null,
        compact_result: summarized ? 'success' : 'failed',
        ...(summarized || event.message === undefined ? {} : { compact_error: event.message }),
      };
      if (event.roundsArchived === 0) return [done];
      const boundary: CcSystemBody = {
        type: 'system',
        subtype: 'compact_boundary',
        compact_metadata: {
          trigger: event.reason === 'manual' ? 'manual' : 'auto',
          pre_tokens: event.tokensBefore,
          post_tokens: event.tokensAfter,
        },
      };
      return [done, boundary];
    }
    default:
      return [];
  }
}

/** A hook run's line (`--include-hook-events`): `hook_started`, then `hook_response` with what it wrote. */
export function hookLine(report: HookRunReport): CcSystemBody {
  const base = { type: 'system' as const, hook_id: report.id, hook_name: report.name, hook_event: report.event };
  if (report.phase === 'started') return { ...base, subtype: 'hook_started' };
  return {
    ...base,
    subtype: 'hook_response',
    output: `${report.stdout}${report.stderr}`,
    stdout: report.stdout,
    stderr: report.stderr,
    ...(report.exitCode === null ? {} : { exit_code: report.exitCode }),
    outcome: report.outcome,
  };
}

/** Whether the environment asks for session_state_changed lines (any non-empty value but 0/false, as CC reads it). */
export function emitsSessionState(env: NodeJS.ProcessEnv = sessionEnvironment()): boolean {
  const value = env.CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** One `session_state_changed` line (`-p` stream-json: `running` before init, `idle` after the result). */
export function sessionStateLine(state: 'running' | 'idle', sessionId: string): CcSystemLine {
  return { type: 'system', subtype: 'session_state_changed', state, uuid: randomUUID(), session_id: sessionId };
}

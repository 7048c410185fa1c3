/**
 * `--output-format json`: one JSON object when the run is over (result, session id, steps, usage in snake case,
 * is_error, stop_reason, the permission denials). JSON escapes control characters itself.
 */
import type { Usage } from '../providers/types.js';
import { ZERO_USAGE } from '../providers/types.js';
import { permissionDenialOf, type PermissionDenial } from '../claude-code/permission-denials.js';
import type { PrintSink, SinkOutput } from './sink.js';

function snakeUsage(usage: Usage): Record<string, number> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
  };
}

export function jsonSink(output: SinkOutput): PrintSink {
  const denials: PermissionDenial[] = [];
  return {
    event(event) {
      const denial = permissionDenialOf(event);
      if (denial) denials.push(denial);
    },
    finish({ end, answer, failed, sessionId }) {
      const result = {
        // An answer that arrived but could not be saved is still the result; is_error and `error` say what failed.
        result: end?.unsavedAnswer ?? answer,
        ...(end?.unsavedAnswer !== undefined ? { error: answer } : {}),
        session_id: sessionId,
        steps: end?.steps ?? 0,
        usage: snakeUsage(end?.usage ?? ZERO_USAGE),
        is_error: failed,
        stop_reason: end?.reason ?? 'error',
        permission_denials: denials,
      };
      output.stdout(`${JSON.stringify(result)}\n`);
    },
  };
}

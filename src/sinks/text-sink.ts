/**
 * `--output-format text`: the final answer on stdout; what a person running a script should know (compaction
 * fallbacks, degrade steps, warnings, retries, permission denials, the error of a failed run) on stderr.
 */
import type { AgentEvent } from '../loop/events.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import { permissionDenialOf } from '../claude-code/permission-denials.js';
import { webSearchLine } from '../loop/web-search-line.js';
import { modelFallbackLine } from '../loop/model-fallback-line.js';
import type { PrintResult, PrintSink, SinkOutput } from './sink.js';

/** The line a person running a script should see on stderr for an event, if any (text and json formats). */
export function stderrLineFor(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'compaction_end':
      return event.message;
    case 'degrade':
    case 'warning':
      return event.message;
    case 'web_search':
      return webSearchLine(event);
    case 'model_fallback':
      return modelFallbackLine(event);
    case 'retry':
      return `${event.reason.replace(/[.\s]+$/, '')}; retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt})`;
    default:
      return undefined;
  }
}

export function textSink(output: SinkOutput): PrintSink {
  return {
    event(event) {
      const line = stderrLineFor(event);
      if (line) output.stderr(line);
      const denial = permissionDenialOf(event);
      if (denial) output.stderr(`permission denied: ${denial.reason}`);
    },
    finish({ end, answer, failed }: PrintResult) {
      if (failed) {
        // The answer arrived and only saving it failed (MCA_HOME full or read-only): stdout still gets it first.
        const unsaved = end?.unsavedAnswer;
        if (unsaved !== undefined && unsaved !== '') {
          output.stdout(neutralizeControlSequences(unsaved.endsWith('\n') ? unsaved : `${unsaved}\n`));
        }
        return output.stderr(answer);
      }
      // The answer is the model's: its escape sequences (OSC 52 clipboard, OSC 2 title, SGR 8 hidden text) are
      // shown, never acted on.
      output.stdout(neutralizeControlSequences(answer.endsWith('\n') ? answer : `${answer}\n`));
    },
  };
}

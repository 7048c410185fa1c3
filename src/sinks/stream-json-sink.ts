/**
 * `--output-format stream-json`: every event as one JSON line while the run goes; nothing after it (the last line
 * is the `turn_end`). Today a line is the event as the agent emits it; issue 24 gives it Claude Code's shape.
 */
import type { PrintSink, SinkOutput } from './sink.js';

export function streamJsonSink(output: SinkOutput): PrintSink {
  return {
    event(event) {
      output.stdout(`${JSON.stringify(event)}\n`);
    },
    finish() {},
  };
}

/** The sink for a `--output-format` (the CLI lists the names for its flag; each one has a sink here). */
import { jsonSink } from './json-sink.js';
import type { PrintSink, SinkOutput } from './sink.js';
import { streamJsonSink } from './stream-json-sink.js';
import { textSink } from './text-sink.js';

export type SinkFormat = 'text' | 'json' | 'stream-json';

export function createSink(format: SinkFormat, output: SinkOutput): PrintSink {
  if (format === 'json') return jsonSink(output);
  if (format === 'stream-json') return streamJsonSink(output);
  return textSink(output);
}

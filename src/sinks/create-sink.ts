/**
 * The sink for a `--output-format` (the CLI lists the names for its flag; each one has a sink here). `json` and
 * `stream-json` are Claude Code's shapes; `mca-json` and `mca-stream-json` are mca's earlier ones (its own result
 * object, its internal events), kept for one release for scripts written against them.
 */
import type { ClaudeCodeSessionInfo } from './claude-code-sink.js';
import type { PrintSink, SinkOutput } from './sink.js';
import { textSink } from './text-sink.js';

export const SINK_FORMATS = ['text', 'json', 'stream-json', 'mca-json', 'mca-stream-json'] as const;
export type SinkFormat = (typeof SINK_FORMATS)[number];

/** The text sink is loaded with this module; the others (Claude Code's message shapes) only when asked for. */
export async function createSink(
  format: SinkFormat,
  output: SinkOutput,
  session: ClaudeCodeSessionInfo,
): Promise<PrintSink> {
  if (format === 'json' || format === 'stream-json')
    return (await import('./claude-code-sink.js')).claudeCodeSink(format, output, session);
  if (format === 'mca-json') return (await import('./json-sink.js')).jsonSink(output);
  if (format === 'mca-stream-json') return (await import('./stream-json-sink.js')).streamJsonSink(output);
  return textSink(output);
}

/** `--output-format` names (src/sinks/create-sink.ts has a sink for each; kept here so the flag parser loads no sink). */
export const OUTPUT_FORMATS = ['text', 'json', 'stream-json', 'mca-json', 'mca-stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

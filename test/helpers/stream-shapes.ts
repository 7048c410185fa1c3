/**
 * Golden shapes of stream-json lines: what kinds of lines come, in which order, and each kind's keys with their JSON
 * types (never their values, which change every run). Used to compare mca's lines with Claude Code's own
 * (test/fixtures/claude-code-stream/, written by capture-claude-code.ts).
 *   tsx test/helpers/stream-shapes.ts <capture.jsonl>   prints {sequence, shapes} of a capture
 */
import { readFileSync } from 'node:fs';

export type JsonType = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean';
/** A kind's keys and the JSON types each was seen with. */
export type Shape = Record<string, JsonType[]>;

function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonType;
}

/** `type`, `type/subtype`, with the state of state-carrying lines (`system/session_state_changed:idle`). */
export function kindOf(line: Record<string, unknown>): string {
  const base = typeof line.subtype === 'string' ? `${String(line.type)}/${line.subtype}` : String(line.type);
  if (line.type === 'control_request') {
    const request = line.request as { subtype?: unknown } | undefined;
    return `control_request/${String(request?.subtype)}`;
  }
  return typeof line.state === 'string' ? `${base}:${line.state}` : base;
}

/** The kinds of `lines` in order; `skip` leaves out kinds whose count depends on the model (assistant, user, …). */
export function sequenceOf(lines: ReadonlyArray<Record<string, unknown>>, keep: (kind: string) => boolean): string[] {
  return lines.map(kindOf).filter(keep);
}

/** Each kind's keys and types (states share one shape: `system/session_state_changed`). */
export function shapesOf(lines: ReadonlyArray<Record<string, unknown>>): Record<string, Shape> {
  const shapes: Record<string, Shape> = {};
  for (const line of lines) {
    const kind = kindOf(line).split(':')[0] ?? '';
    const shape = (shapes[kind] ??= {});
    for (const [key, value] of Object.entries(line)) {
      const types = (shape[key] ??= []);
      const type = jsonType(value);
      if (!types.includes(type)) types.push(type);
    }
  }
  for (const shape of Object.values(shapes)) for (const types of Object.values(shape)) types.sort();
  return shapes;
}

export function parseLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

if (process.argv[1]?.endsWith('stream-shapes.ts') && process.argv[2]) {
  const lines = parseLines(readFileSync(process.argv[2], 'utf8'));
  const sequence = sequenceOf(lines, (kind) => !['assistant', 'user', 'stream_event'].includes(kind));
  process.stdout.write(`${JSON.stringify({ sequence, shapes: shapesOf(lines) }, null, 2)}\n`);
}

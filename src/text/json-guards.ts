/** Small type guards for data that claims a shape but may not have it (tool data, parsed JSON). */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(isString);
}

/** JSON.stringify that never throws (cycles, BigInt): undefined when the value cannot be serialized. */
export function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Cuts a string to `max` characters, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}\u2026`;
}

/** Keeps the last `max` characters, marking the cut with a leading ellipsis. */
export function clipStart(text: string, max: number): string {
  return text.length <= max ? text : `\u2026${text.slice(text.length - Math.max(0, max - 1))}`;
}

/**
 * ToolResultCompressor (spec A3, C1; DESIGN.md). Turns a full tool envelope into the compact JSON string that
 * goes into history: `{status, data: <compressed>, error?: <whole>}`. `text`, `stats` and `context` are dropped.
 * Each tool's rule is its definition's `compress` member (found by name in the tool catalogue); a tool without one,
 * and data that does not have the tool's documented shape, fall back to the unknown-tool rule, so this never throws.
 */
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import { clip, isRecord, isString, safeStringify, type JsonRecord } from '../text/json-guards.js';
import { COMPRESSION_LIMITS } from '../tools/registry/result-forms.js';
import { toolNamed } from '../tools/registry/tool-catalog.js';

export { shrinkToolMessage } from './tool-result-shrinker.js';

export { COMPRESSION_LIMITS };

const LIMIT = COMPRESSION_LIMITS;

/** Status markers copied from the original data whenever present (C1: they must survive compression). */
const MARKERS = ['truncated', 'applied', 'fallback', 'modified_externally', 'timed_out', 'interrupted'] as const;

const STATUSES = new Set(['success', 'partial', 'error']);

/** Unknown tools and malformed data: small data is kept as is, big data becomes a size note. */
function compressUnknown(data: unknown): JsonRecord | unknown {
  const serialized = safeStringify(data);
  if (serialized !== undefined && serialized.length <= COMPRESSION_LIMITS.unknownDataChars) {
    return JSON.parse(serialized) as unknown;
  }
  return { truncated: true, original_size: serialized?.length ?? 0 };
}

function copyMarkers(from: unknown, to: unknown): void {
  if (!isRecord(from) || !isRecord(to)) return;
  for (const marker of MARKERS) {
    const value = from[marker];
    if (value === undefined || marker in to) continue;
    if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') to[marker] = value;
  }
}

function compressError(error: unknown): JsonRecord | undefined {
  if (!isRecord(error)) return undefined;
  const message = String(error.message ?? '');
  return { code: clip(String(error.code ?? 'INTERNAL_ERROR'), 40), message: clip(message, LIMIT.errorMessageChars) };
}

/**
 * The history form of a tool result: always a valid JSON string, never throws. `ref` is the tool-memory reference
 * of the full result (issue 13): it leads the data, so every later form of the entry can name it.
 */
export function compressToolResult(toolName: string, envelope: ToolEnvelope<unknown>, ref?: string): string {
  const source: unknown = envelope;
  const record = isRecord(source) ? source : {};
  const status = isString(record.status) && STATUSES.has(record.status) ? record.status : 'error';
  const data = record.data;
  const rule = toolNamed(toolName)?.compress;
  let compressed: unknown;
  try {
    compressed = rule !== undefined && isRecord(data) ? rule(data) : undefined;
  } catch {
    compressed = undefined;
  }
  if (compressed === undefined) compressed = compressUnknown(data ?? {});
  copyMarkers(data, compressed);
  const result: JsonRecord = ref === undefined ? { status, data: compressed } : { status, ref, data: compressed };
  const error = compressError(record.error);
  if (error !== undefined) result.error = error;
  return safeStringify(result) ?? JSON.stringify({ status, data: { truncated: true, original_size: 0 } });
}

/** The one shape every tool returns. The compressor (src/context/tool-result-compressor.ts) depends on it. */
import type { ImagePart } from '../../text/image-part.js';

export type ToolStatus = 'success' | 'partial' | 'error';

export const TOOL_ERROR_CODES = [
  'NOT_FOUND',
  'ACCESS_DENIED',
  'PERMISSION_DENIED',
  'INVALID_PARAM',
  'TIMEOUT',
  'CONFLICT',
  'IS_DIRECTORY',
  'BINARY_FILE',
  'EXECUTION_ERROR',
  'INTERNAL_ERROR',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export interface ToolError {
  code: ToolErrorCode;
  message: string;
}

export interface ToolStats {
  durationMs: number;
  [key: string]: number;
}

export interface ToolEnvelope<Data = Record<string, unknown>> {
  status: ToolStatus;
  data: Data;
  /** Human/model-readable rendering of the result (the full observation text). */
  text: string;
  stats: ToolStats;
  /** The parameters the tool ran with, resolved (e.g. absolute paths made relative). */
  context: Record<string, unknown>;
  error?: ToolError;
  /**
   * Images the result carries (Read of an image file, an MCP image result): the model sees them with this turn's
   * result only; history keeps `text`'s one-line reference (the compressor never sees them).
   */
  images?: ImagePart[];
}

export function successEnvelope<Data>(
  data: Data,
  text: string,
  extras: { status?: 'success' | 'partial'; stats?: Partial<ToolStats>; context?: Record<string, unknown> } = {},
): ToolEnvelope<Data> {
  return {
    status: extras.status ?? 'success',
    data,
    text,
    stats: { durationMs: 0, ...extras.stats } as ToolStats,
    context: extras.context ?? {},
  };
}

export function errorEnvelope(
  code: ToolErrorCode,
  message: string,
  extras: { data?: Record<string, unknown>; context?: Record<string, unknown> } = {},
): ToolEnvelope {
  return {
    status: 'error',
    data: extras.data ?? {},
    text: `Error [${code}]: ${message}`,
    stats: { durationMs: 0 },
    context: extras.context ?? {},
    error: { code, message },
  };
}

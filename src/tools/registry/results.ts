import { successEnvelope, type ToolEnvelope, type ToolStats } from './envelope.js';

/**
 * A success/partial envelope for a typed tool-data shape. The envelope's `data` is a plain JSON object; the
 * tool-data interfaces have no index signature, hence the one widening cast here instead of one per tool.
 */
export function toolResult<Data extends object>(
  data: Data,
  text: string,
  extras: { status?: 'success' | 'partial'; stats?: Partial<ToolStats>; context?: Record<string, unknown> } = {},
): ToolEnvelope {
  return successEnvelope(data as unknown as Record<string, unknown>, text, extras);
}

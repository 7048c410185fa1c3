import type { ToolEnvelope } from '../tools/envelope.js';

/**
 * The full observation the model sees during its own turn (DESIGN.md: full in the scratchpad, compressed in
 * history). The tool's text rendering is complete and readable (numbered lines stay lines instead of JSON
 * escapes); status and error code lead so the model never mistakes a failure for output.
 */
export function observationText(envelope: ToolEnvelope): string {
  if (envelope.status === 'error') {
    const code = envelope.error?.code ?? 'INTERNAL_ERROR';
    const message = envelope.error?.message ?? 'the tool failed';
    const header = `Error [${code}]: ${message}`;
    return envelope.text && !envelope.text.startsWith(header) ? `${header}\n${envelope.text}` : header;
  }
  const prefix = envelope.status === 'partial' ? '(partial result)\n' : '';
  return `${prefix}${envelope.text}`;
}

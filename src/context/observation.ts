import type { ToolEnvelope } from '../tools/registry/envelope.js';

/**
 * The full observation the model sees during its own turn (DESIGN.md: full in the scratchpad, compressed in
 * history). The tool's text rendering, also on failure, is complete and readable (numbered lines stay lines instead of JSON
 * escapes); status and error code lead so the model never mistakes a failure for output.
 */
export function observationText(envelope: ToolEnvelope): string {
  if (envelope.status === 'error') {
    const code = envelope.error?.code ?? 'INTERNAL_ERROR';
    const message = envelope.error?.message ?? 'the tool failed';
    const header = `Error [${code}]: ${message}`;
    // The tool's text usually starts with this header and goes on with what the failure printed (a failing
    // command's stdout and stderr): all of it reaches the model, never the header alone.
    if (envelope.text.startsWith(header)) return envelope.text;
    return envelope.text.trim() === '' ? header : `${header}\n${envelope.text}`;
  }
  const prefix = envelope.status === 'partial' ? '(partial result)\n' : '';
  return `${prefix}${envelope.text}`;
}

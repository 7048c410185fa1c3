/**
 * What the ACP front refuses, as a typed error; acp-server.ts turns each into a JSON-RPC error (the code below),
 * never a crash. Failures of the runtime (a missing key, a damaged session) keep their own McaError classes.
 */
import { McaError } from '../errors/mca-error.js';

export type AcpErrorCode = 'ACP_SESSION_NOT_FOUND' | 'ACP_INVALID_PARAMS' | 'ACP_BUSY' | 'ACP_OVERLOADED';

/**
 * JSON-RPC codes: -32002 resource not found (ACP), -32602 invalid params, -32600 invalid request, -32800 request
 * cancelled (ACP: "aborted … because of resource constraints").
 */
export const JSON_RPC_CODES: Readonly<Record<AcpErrorCode, number>> = {
  ACP_SESSION_NOT_FOUND: -32002,
  ACP_INVALID_PARAMS: -32602,
  ACP_BUSY: -32600,
  ACP_OVERLOADED: -32800,
};

export class AcpError extends McaError {
  constructor(
    readonly code: AcpErrorCode,
    message: string,
  ) {
    super(message);
  }
}

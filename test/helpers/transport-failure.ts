/** The TransportError a transport call rejects with; anything else (or success) fails the test. */
import { TransportError } from '../../src/providers/transport-error.js';

export async function transportFailure(promise: Promise<unknown>): Promise<TransportError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TransportError) return error;
    throw error;
  }
  throw new Error('expected a TransportError');
}

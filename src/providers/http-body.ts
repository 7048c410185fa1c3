/**
 * A response body as bytes in arrival order, decompressed when the server chose gzip, deflate or br (we never ask
 * for them, but a proxy may). A decoder hands out what each compressed chunk holds as it arrives, so a compressed SSE
 * stream still arrives event by event. node:zlib is loaded only for a compressed body.
 */
import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { bodyFailure } from './transport-error.js';

async function decoderFor(encoding: string | undefined): Promise<Transform | undefined> {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return undefined;
  if (name !== 'gzip' && name !== 'x-gzip' && name !== 'deflate' && name !== 'br') return undefined;
  const zlib = await import('node:zlib');
  // Lenient at the end like browsers: a stream missing its trailer still yields what it decoded (a body the
  // socket cut short is caught by the response's own framing).
  if (name === 'br') return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  const finishFlush = zlib.constants.Z_SYNC_FLUSH;
  return name === 'deflate' ? zlib.createInflate({ finishFlush }) : zlib.createGunzip({ finishFlush });
}

/**
 * The body, to iterate once. A body that breaks off throws a TransportError ('body_cut'; 'decode' for a corrupt
 * compressed stream; the abort's own error when the caller aborted). Leaving the loop early drops the connection.
 */
export function decodedBody(response: IncomingMessage): AsyncGenerator<Uint8Array> {
  // Listening from the start tells a socket failure from a decoder failure, whenever it happens.
  const socket: { error?: unknown } = {};
  response.once('error', (error) => {
    socket.error = error;
  });
  return iterate(response, socket);
}

async function* iterate(response: IncomingMessage, socket: { error?: unknown }): AsyncGenerator<Uint8Array> {
  try {
    const decoder = await decoderFor(response.headers['content-encoding']);
    let source: Readable = response;
    if (decoder !== undefined) {
      // pipeline destroys both streams when either fails; the error reaches the decoder's iterator.
      pipeline(response, decoder, () => undefined);
      source = decoder;
    }
    try {
      for await (const chunk of source) yield chunk as Uint8Array;
    } catch (error) {
      const fromSocket = socket.error !== undefined && error === socket.error;
      throw bodyFailure(error, decoder !== undefined && !fromSocket);
    }
    if (!response.complete) throw bodyFailure(new Error('incomplete'), false);
  } finally {
    if (!response.complete) response.destroy();
  }
}

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

/** How long a body the caller left early may take to end before its connection is dropped instead of reused. */
const DRAIN_LIMIT_MS = 2_000;

/**
 * The body, to iterate once. A body that breaks off throws a TransportError ('body_cut'; 'decode' for a corrupt
 * compressed stream; the abort's own error when the caller aborted). `release` is called once the caller is done
 * with the body (read, failed or left), after which an abort no longer concerns it.
 */
export function decodedBody(response: IncomingMessage, release: () => void): AsyncGenerator<Uint8Array> {
  // Listening from the start tells a socket failure from a decoder failure, whenever it happens.
  const socket: { error?: unknown } = {};
  response.once('error', (error) => {
    socket.error = error;
  });
  return iterate(response, socket, release);
}

/**
 * The caller stopped reading before the end (an OpenAI-compatible stream after `[DONE]`): the rest is read in the
 * background so the connection goes back to the pool, unless it does not end soon. The socket is unref'd meanwhile
 * so it never holds the process open.
 */
function drainInBackground(response: IncomingMessage, source: Readable): void {
  if (response.destroyed) return;
  if (!response.complete) {
    response.socket?.unref();
    const timer = setTimeout(() => response.destroy(), DRAIN_LIMIT_MS);
    timer.unref();
    response.once('close', () => clearTimeout(timer));
  }
  source.resume();
}

async function* iterate(
  response: IncomingMessage,
  socket: { error?: unknown },
  release: () => void,
): AsyncGenerator<Uint8Array> {
  let source: Readable = response;
  let ended = false;
  try {
    const decoder = await decoderFor(response.headers['content-encoding']);
    if (decoder !== undefined) {
      // pipeline destroys both streams when either fails; the error reaches the decoder's iterator.
      pipeline(response, decoder, () => undefined);
      source = decoder;
    }
    try {
      // Not destroyed when the caller leaves early: a body left at its very end can still free its connection.
      for await (const chunk of source.iterator({ destroyOnReturn: false })) yield chunk as Uint8Array;
    } catch (error) {
      const fromSocket = socket.error !== undefined && error === socket.error;
      throw bodyFailure(error, decoder !== undefined && !fromSocket);
    }
    ended = true;
    if (!response.complete) throw bodyFailure(new Error('incomplete'), false);
  } finally {
    release();
    if (!ended) drainInBackground(response, source);
    // A decoded stream that ended before its HTTP body did (bytes after the end of the gzip stream).
    else if (!response.complete) response.destroy();
  }
}

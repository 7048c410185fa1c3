/**
 * The HTTP plumbing the loopback fake APIs share: body reading, JSON and SSE responses, text chunking, and a
 * server on 127.0.0.1 that closes cleanly even with hanging connections open.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

/** Splits text into at most `count` non-empty pieces (none for empty text). */
export function splitChunks(text: string, count: number): string[] {
  if (text.length === 0) return [];
  const pieces = Math.max(1, Math.min(count, text.length));
  const size = Math.ceil(text.length / pieces);
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

export interface LoopbackServer {
  port: number;
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections(): number;
  /** Destroys open sockets (hung requests included), then closes the server. */
  close(): Promise<void>;
}

/**
 * Serves `handle` on a random loopback port. A handler that throws gets `onError` (before headers) or a destroyed
 * connection (after), so a broken fake fails the request, not the test process.
 */
export async function listenLoopback(
  name: string,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  onError: (res: ServerResponse, error: unknown) => void,
  /** `tls`: serve https with this key and certificate (e.g. test/helpers/self-signed-cert.ts). */
  options: { keepAliveTimeoutMs?: number; tls?: { key: Buffer; cert: Buffer } } = {},
): Promise<LoopbackServer> {
  // Idle keep-alive connections stay open until close() (not Node's 5 s), so a client whose pooled connection held
  // its process open would hang a test instead of exiting late but green.
  const keepAliveTimeoutMs = options.keepAliveTimeoutMs ?? 600_000;
  const sockets = new Set<Socket>();
  let accepted = 0;
  const listener: RequestListener = (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) onError(res, error);
      else res.destroy();
    });
  };
  const server = options.tls === undefined ? createServer(listener) : createTlsServer(options.tls, listener);
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on('connection', (socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`${name}: no TCP address`);
  return {
    port: address.port,
    connections: () => accepted,
    close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A loopback https server with a fresh self-signed certificate for 127.0.0.1: every POST gets `data: secure` as an
 * event stream. It records the headers of each request and counts TLS handshakes (a kept-alive client does one).
 * Idle connections stay open for ten minutes, so only the client can end them. Needs openssl (hasOpenssl()).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import { makeSelfSignedCert, type SelfSignedCert } from './self-signed-cert.js';

export interface HttpsTarget {
  /** https://127.0.0.1:port/v1/messages */
  url: URL;
  cert: SelfSignedCert;
  seen: IncomingHttpHeaders[];
  handshakes(): number;
  close(): Promise<void>;
}

export async function startHttpsTarget(): Promise<HttpsTarget> {
  const cert = makeSelfSignedCert();
  const seen: IncomingHttpHeaders[] = [];
  let handshakes = 0;
  const server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: secure\n\n');
    });
  });
  server.keepAliveTimeout = 600_000;
  server.on('secureConnection', () => handshakes++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('https-target: no TCP address');
  return {
    url: new URL(`https://127.0.0.1:${address.port}/v1/messages`),
    cert,
    seen,
    handshakes: () => handshakes,
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      cert.remove();
    },
  };
}

/**
 * The transport over TLS, against a loopback https server with a self-signed certificate made for the test: an
 * untrusted certificate is a 'tls' failure before any response; trusted (NODE_EXTRA_CA_CERTS, read at start-up, so
 * in a child process) it streams, keeps its connection alive and lets the process exit by itself.
 */
import { createServer, type Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeHttpTransport } from '../../src/providers/http-transport.js';
import { TransportError } from '../../src/providers/transport-error.js';
import { hasOpenssl, makeSelfSignedCert, type SelfSignedCert } from '../helpers/self-signed-cert.js';
import { runTransportChild } from '../helpers/transport-child.js';

const OPENSSL = hasOpenssl();
let cert: SelfSignedCert | undefined;
let server: Server;
let url: URL;
let connections = 0;

beforeAll(async () => {
  if (!OPENSSL) return;
  cert = makeSelfSignedCert();
  server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: secure\n\n');
    });
  });
  server.keepAliveTimeout = 600_000;
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  url = new URL(`https://127.0.0.1:${address.port}/v1/messages`);
});

afterAll(async () => {
  if (!OPENSSL) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  cert?.remove();
});

describe.skipIf(!OPENSSL)('NodeHttpTransport over https (needs openssl)', () => {
  it('refuses an untrusted certificate with failure tls before any response', async () => {
    let caught: unknown;
    try {
      await new NodeHttpTransport().post({ url, headers: {}, body: '{}', signal: new AbortController().signal });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TransportError);
    expect(caught).toMatchObject({ failure: 'tls', beforeResponse: true });
    expect(((caught as TransportError).cause as NodeJS.ErrnoException).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('with the certificate trusted, streams over one kept-alive connection and the process exits by itself', async () => {
    const before = connections;
    const { code, signal, output } = await runTransportChild(url, 2, { NODE_EXTRA_CA_CERTS: cert?.certPath ?? '' });
    expect({ code, signal, output }).toEqual({ code: 0, signal: null, output: 'data: secure\n\ndata: secure\n\n' });
    expect(connections - before).toBe(1);
  }, 30_000);
});

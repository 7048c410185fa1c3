/**
 * The transport over TLS, against a loopback https server with a self-signed certificate made for the test: an
 * untrusted certificate is a 'tls' failure before any response; trusted (NODE_EXTRA_CA_CERTS, read at start-up, so
 * in a child process) it streams, keeps its connection alive and lets the process exit by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeHttpTransport } from '../../src/providers/http-transport.js';
import { TransportError } from '../../src/providers/transport-error.js';
import { startHttpsTarget, type HttpsTarget } from '../helpers/https-target.js';
import { hasOpenssl } from '../helpers/self-signed-cert.js';
import { runsWith } from '../helpers/optional-tools.js';
import { runTransportChild } from '../helpers/transport-child.js';

const OPENSSL = runsWith('openssl', hasOpenssl(), 'the https transport tests');
let target: HttpsTarget | undefined;
let url: URL;

beforeAll(async () => {
  if (!OPENSSL) return;
  target = await startHttpsTarget();
  url = target.url;
});

afterAll(async () => {
  await target?.close();
});

describe.skipIf(!OPENSSL)('NodeHttpTransport over https (needs openssl)', () => {
  it('refuses an untrusted certificate with failure tls before any response', async () => {
    let caught: unknown;
    try {
      await new NodeHttpTransport({}).post({ url, headers: {}, body: '{}', signal: new AbortController().signal });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TransportError);
    expect(caught).toMatchObject({ failure: 'tls', beforeResponse: true });
    expect(((caught as TransportError).cause as NodeJS.ErrnoException).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('with the certificate trusted, streams over one kept-alive connection and the process exits by itself', async () => {
    const before = target?.handshakes() ?? 0;
    const { code, signal, output } = await runTransportChild(url, 2, {
      NODE_EXTRA_CA_CERTS: target?.cert.certPath ?? '',
    });
    expect({ code, signal, output }).toEqual({ code: 0, signal: null, output: 'data: secure\n\ndata: secure\n\n' });
    expect((target?.handshakes() ?? 0) - before).toBe(1);
  }, 30_000);
});

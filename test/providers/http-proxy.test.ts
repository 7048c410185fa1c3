/**
 * The transport through an HTTP proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY), against a loopback CONNECT proxy that
 * records what it saw, in front of a plain http fake and a loopback https server with a self-signed certificate
 * (trusted through NODE_EXTRA_CA_CERTS in a child process, as users do; skipped without openssl).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnthropicProvider } from '../../src/providers/anthropic.js';
import { OpenAICompatibleProvider } from '../../src/providers/openai-compatible.js';
import { NodeHttpTransport, type HttpResponse } from '../../src/providers/http-transport.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import type { ModelProvider, ModelRequest } from '../../src/providers/types.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { listenLoopback, readBody, type LoopbackServer } from '../helpers/loopback-http.js';
import { startHttpsTarget, type HttpsTarget } from '../helpers/https-target.js';
import { hasOpenssl, type SelfSignedCert } from '../helpers/self-signed-cert.js';
import { runsWith } from '../helpers/optional-tools.js';
import { runTransportChild } from '../helpers/transport-child.js';
import { transportFailure as failure } from '../helpers/transport-failure.js';

const KEY = 'sk-ant-proxy-test-0123456789abcdef';
const REQUEST: ModelRequest = {
  model: 'claude-test',
  system: [{ text: 'sys' }],
  user: [{ text: 'hi' }],
  maxTokens: 100,
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function proxy(...options: Parameters<typeof startConnectProxy>): Promise<ConnectProxy> {
  const started = await startConnectProxy(...options);
  closers.push(() => started.close());
  return started;
}

/** A plain http fake that streams two SSE chunks and records the headers of every request. */
async function target(): Promise<{ url: URL; server: LoopbackServer; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = await listenLoopback(
    'proxy-target',
    async (req, res) => {
      await readBody(req);
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      // The second chunk only once the client has read the first (or after a second, for a client that reads
      // nothing): the test then sees two chunks however busy the machine is, and a buffering client still shows.
      const sent = new Promise<void>((resolve) => firstChunkRead.push(resolve));
      await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 1000))]);
      res.end('data: two\n\n');
    },
    (res) => res.destroy(),
  );
  closers.push(() => server.close());
  return { url: new URL(`http://127.0.0.1:${server.port}/v1/messages`), server, seen };
}

function post(transport: NodeHttpTransport, url: URL): Promise<HttpResponse> {
  return transport.post({ url, headers: { 'x-api-key': KEY }, body: '{"n":1}', signal: new AbortController().signal });
}

/** Waiters of the fake target: each is released when the client has read a first chunk. */
const firstChunkRead: Array<() => void> = [];

/** The body's chunks as they arrived. */
async function chunks(response: HttpResponse): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of response.body) {
    out.push(Buffer.from(chunk).toString('utf8'));
    for (const release of firstChunkRead.splice(0)) release();
  }
  return out;
}

/** A port nothing listens on: a server bound and closed again. */
async function closedPort(): Promise<number> {
  const server = await listenLoopback(
    'closed',
    async () => undefined,
    () => undefined,
  );
  const port = server.port;
  await server.close();
  return port;
}

describe('http target through HTTP_PROXY', () => {
  it('tunnels with CONNECT, streams, and reuses one tunnel for two requests', async () => {
    const fake = await target();
    const through = await proxy();
    const transport = new NodeHttpTransport({ HTTP_PROXY: through.url });
    const first = await chunks(await post(transport, fake.url));
    const second = await chunks(await post(transport, fake.url));
    expect(first.join('')).toBe('data: one\n\ndata: two\n\n');
    expect(second.join('')).toBe('data: one\n\ndata: two\n\n');
    expect(first.length).toBeGreaterThanOrEqual(2);
    expect(through.connects.map((record) => record.target)).toEqual([`127.0.0.1:${fake.url.port}`]);
    expect(fake.server.connections()).toBe(1);
    expect(fake.seen).toHaveLength(2);
    expect(through.plainRequests).toBe(0);
  });

  it('sends percent-decoded credentials to the proxy on CONNECT only, never to the target', async () => {
    const fake = await target();
    const through = await proxy();
    const withUser = through.url.replace('http://', 'http://us%40er:p%3Ass%20word@');
    await chunks(await post(new NodeHttpTransport({ http_proxy: withUser }), fake.url));
    const expected = `Basic ${Buffer.from('us@er:p:ss word').toString('base64')}`;
    expect(through.connects[0]?.headers['proxy-authorization']).toBe(expected);
    expect(fake.seen[0]?.['proxy-authorization']).toBeUndefined();
    expect(fake.seen[0]?.['x-api-key']).toBe(KEY);
  });

  it('lower-case http_proxy wins over HTTP_PROXY, as in curl', async () => {
    const fake = await target();
    const lower = await proxy();
    const upper = await proxy();
    await chunks(await post(new NodeHttpTransport({ http_proxy: lower.url, HTTP_PROXY: upper.url }), fake.url));
    expect([lower.connects.length, upper.connects.length]).toEqual([1, 0]);
  });

  it('HTTPS_PROXY alone does not carry an http target', async () => {
    const fake = await target();
    const through = await proxy();
    await chunks(await post(new NodeHttpTransport({ HTTPS_PROXY: through.url }), fake.url));
    expect(through.connects).toEqual([]);
    expect(fake.seen).toHaveLength(1);
  });

  it.each([['*'], ['127.0.0.1'], ['example.com, 127.0.0.1'], ['example.com 127.0.0.1'], ['127.0.0.0/8'], ['PORT']])(
    'NO_PROXY=%s sends the request direct: the proxy sees nothing',
    async (list) => {
      const fake = await target();
      const through = await proxy();
      const noProxy = list === 'PORT' ? `127.0.0.1:${fake.url.port}` : list;
      await chunks(await post(new NodeHttpTransport({ HTTP_PROXY: through.url, NO_PROXY: noProxy }), fake.url));
      expect(through.connects).toEqual([]);
      expect(fake.seen).toHaveLength(1);
    },
  );

  it.each([['example.com'], ['127.0.0.1:1'], ['127.0.0.2'], ['localhost']])(
    'NO_PROXY=%s does not cover 127.0.0.1 on the fake port: the proxy carries it (loopback is not exempt)',
    async (noProxy) => {
      const fake = await target();
      const through = await proxy();
      await chunks(await post(new NodeHttpTransport({ HTTP_PROXY: through.url, NO_PROXY: noProxy }), fake.url));
      expect(through.connects).toHaveLength(1);
    },
  );

  it('a proxy that answers 407 is one line naming the proxy, its status, and not the password', async () => {
    const fake = await target();
    const through = await proxy({ refuse: 407 });
    const withUser = through.url.replace('http://', 'http://alice:hunter2-secret@');
    const error = await failure(post(new NodeHttpTransport({ HTTP_PROXY: withUser }), fake.url));
    expect(error).toMatchObject({ failure: 'proxy', status: 407, beforeResponse: true });
    expect(error.message).toBe(
      `the proxy 127.0.0.1:${through.port} from HTTP_PROXY refused the tunnel to 127.0.0.1:${fake.url.port} ` +
        '(407 Proxy Authentication Required); it did not accept the credentials in HTTP_PROXY',
    );
    expect(fake.seen).toEqual([]);
  });

  it.each([[403], [502]])('a proxy that answers %i is a proxy failure with that status', async (status) => {
    const fake = await target();
    const through = await proxy({ refuse: status });
    const error = await failure(post(new NodeHttpTransport({ HTTP_PROXY: through.url }), fake.url));
    expect(error).toMatchObject({ failure: 'proxy', status });
    expect(error.message).toContain(`the proxy 127.0.0.1:${through.port} from HTTP_PROXY refused the tunnel`);
  });

  it('a proxy that is down is a refused connection naming the proxy', async () => {
    const fake = await target();
    const port = await closedPort();
    const transport = new NodeHttpTransport({ HTTP_PROXY: `http://bob:pa55-secret@127.0.0.1:${port}` });
    const error = await failure(post(transport, fake.url));
    expect(error.failure).toBe('refused');
    expect(error.message).toMatch(
      new RegExp(`^could not connect to the proxy 127\\.0\\.0\\.1:${port} from HTTP_PROXY`),
    );
    expect(error.message).not.toContain('pa55-secret');
    expect(fake.seen).toEqual([]);
  });

  it('a tunnel the proxy closes under the request is one line naming the proxy', async () => {
    const fake = await target();
    const through = await proxy('close-tunnel');
    const error = await failure(post(new NodeHttpTransport({ HTTP_PROXY: through.url }), fake.url));
    expect(error).toMatchObject({ failure: 'connection', beforeResponse: true });
    expect(error.message).toBe(
      `ECONNRESET: socket hang up (through the proxy 127.0.0.1:${through.port} from HTTP_PROXY)`,
    );
    expect(fake.seen).toEqual([]);
  });

  it('a proxy that never answers CONNECT fails at its deadline with one line naming it', async () => {
    const fake = await target();
    const through = await proxy('silent');
    const transport = new NodeHttpTransport({ HTTP_PROXY: through.url }, { proxyAnswerTimeoutMs: 100 });
    const error = await failure(post(transport, fake.url));
    expect(error).toMatchObject({ failure: 'connection', beforeResponse: true });
    expect(error.message).toBe(
      `no answer to CONNECT from the proxy 127.0.0.1:${through.port} from HTTP_PROXY within 0.1 s`,
    );
    expect(through.connects).toHaveLength(1);
  });

  it('something at the proxy address that does not speak HTTP is one line saying so', async () => {
    const fake = await target();
    const through = await proxy('not-http');
    const error = await failure(post(new NodeHttpTransport({ HTTP_PROXY: through.url }), fake.url));
    expect(error).toMatchObject({ failure: 'proxy', beforeResponse: true });
    expect(error.message).toMatch(
      new RegExp(
        `^the proxy 127\\.0\\.0\\.1:${through.port} from HTTP_PROXY answered CONNECT with something that is not HTTP \\(HPE_`,
      ),
    );
  });

  it('an unsupported or broken proxy URL is one line that does not repeat the value', async () => {
    const fake = await target();
    const socks = await failure(post(new NodeHttpTransport({ HTTP_PROXY: 'socks5://u:s3cret-pw@h:1080' }), fake.url));
    expect(socks).toMatchObject({ failure: 'proxy_setting', retryWorthy: false });
    expect(socks.message).toBe(
      'HTTP_PROXY uses socks5://, which mca does not support; expected http://[user:password@]host:port',
    );
    const broken = await failure(post(new NodeHttpTransport({ http_proxy: 'http://u:s3cret-pw@[bad' }), fake.url));
    expect(broken.message).toBe('http_proxy is not a valid proxy URL; expected http://[user:password@]host:port');
    expect(fake.seen).toEqual([]);
  });
});

describe('a provider through a failing proxy', () => {
  /** Streams one request through a provider built with HTTP_PROXY set; returns its failure and its retries. */
  async function streamThrough(
    make: (baseUrl: string, env: Record<string, string>) => ModelProvider,
    answer: { refuse: number },
  ): Promise<{ error: ProviderError; retries: number; connects: number; port: number; targetPort: string }> {
    const fake = await target();
    const through = await proxy(answer);
    // The runtime's environment view, as createProvider hands it over (never process.env).
    const env = { HTTP_PROXY: through.url.replace('http://', 'http://carol:s3cr3t-pass@') };
    const provider = make(`http://127.0.0.1:${fake.url.port}`, env);
    let retries = 0;
    try {
      for await (const event of provider.stream(REQUEST, new AbortController().signal)) {
        if (event.type === 'retry') retries++;
      }
    } catch (error) {
      expect(fake.seen).toEqual([]);
      if (!(error instanceof ProviderError)) throw error;
      return { error, retries, connects: through.connects.length, port: through.port, targetPort: fake.url.port };
    }
    throw new Error('expected a ProviderError');
  }

  const options = { apiKey: KEY, maxRetries: 1, backoff: { baseDelayMs: 1 } };
  const anthropic = (baseUrl: string, env: Record<string, string>): ModelProvider =>
    new AnthropicProvider({ ...options, baseUrl, env });
  const openai = (baseUrl: string, env: Record<string, string>): ModelProvider =>
    new OpenAICompatibleProvider({ ...options, baseUrl, env });

  it('Anthropic: a 407 is one line naming the proxy without its password, not retried', async () => {
    const { error, retries, connects, port, targetPort } = await streamThrough(anthropic, { refuse: 407 });
    expect(error.message).toBe(
      `Could not reach the Anthropic API (the proxy 127.0.0.1:${port} from HTTP_PROXY refused the tunnel to ` +
        `127.0.0.1:${targetPort} (407 Proxy Authentication Required); it did not accept the credentials in HTTP_PROXY).`,
    );
    expect(error.message).not.toContain('s3cr3t-pass');
    expect(error.kind).toBe('bad_request');
    expect([retries, connects]).toEqual([0, 1]);
  });

  it('OpenAI-compatible: a 403 is one line naming the proxy, not retried', async () => {
    const { error, retries, connects, port } = await streamThrough(openai, { refuse: 403 });
    expect(error.message).toMatch(
      /^Could not reach the OpenAI-compatible API at http:\/\/127\.0\.0\.1:\d+ \(the proxy /,
    );
    expect(error.message).toContain(`the proxy 127.0.0.1:${port} from HTTP_PROXY refused the tunnel`);
    expect(error.message).toContain('(403 Forbidden)');
    expect(error.message).not.toContain('s3cr3t-pass');
    expect([error.kind, retries, connects]).toEqual(['bad_request', 0, 1]);
  });

  it.each([
    ['Anthropic', anthropic],
    ['OpenAI-compatible', openai],
  ])('%s: a proxy answering 502 is retried like a refused connection', async (_name, make) => {
    const { error, retries, connects } = await streamThrough(make, { refuse: 502 });
    expect(error.message).toContain('(502 Bad Gateway)');
    expect([error.kind, retries, connects]).toEqual(['network', 1, 2]);
  });
});

const OPENSSL = runsWith('openssl', hasOpenssl(), 'the https-through-proxy tests');

describe.skipIf(!OPENSSL)('https target through HTTPS_PROXY (needs openssl)', () => {
  let secure: HttpsTarget;
  let cert: SelfSignedCert;
  let url: URL;

  beforeAll(async () => {
    secure = await startHttpsTarget();
    cert = secure.cert;
    url = secure.url;
  });

  afterAll(() => secure.close());

  it('streams TLS through one tunnel for two requests; the proxy sees its credentials, never the key', async () => {
    const through = await proxy();
    const before = secure.handshakes();
    const env = {
      NODE_EXTRA_CA_CERTS: cert.certPath,
      HTTPS_PROXY: through.url.replace('http://', 'http://dave:tunnel-pw@'),
      NO_PROXY: '',
      no_proxy: '',
      https_proxy: '',
    };
    const run = await runTransportChild(url, 2, env, { 'x-api-key': KEY });
    expect(run).toEqual({ code: 0, signal: null, output: 'data: secure\n\ndata: secure\n\n' });
    expect(through.connects).toHaveLength(1);
    expect(through.connects[0]).toMatchObject({
      target: `127.0.0.1:${url.port}`,
      headers: { 'proxy-authorization': `Basic ${Buffer.from('dave:tunnel-pw').toString('base64')}` },
    });
    expect(secure.handshakes() - before).toBe(1);
    expect(secure.seen.slice(-2).map((headers) => [headers['x-api-key'], headers['proxy-authorization']])).toEqual([
      [KEY, undefined],
      [KEY, undefined],
    ]);
    // What the proxy carried was TLS: neither the key nor the request line is readable in it.
    const carried = through.clientBytes();
    expect(carried.length).toBeGreaterThan(0);
    expect(carried).not.toContain(KEY);
    expect(carried).not.toContain('POST /v1/messages');
  }, 30_000);

  it('an untrusted certificate behind the proxy is still refused (tls), so the tunnel does not skip the checks', async () => {
    const through = await proxy();
    const error = await failure(post(new NodeHttpTransport({ HTTPS_PROXY: through.url }), url));
    expect(error.failure).toBe('tls');
    expect(error.message).toBe(
      `DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate (through the proxy 127.0.0.1:${through.port} from HTTPS_PROXY)`,
    );
    expect(through.connects).toHaveLength(1);
    expect(through.clientBytes()).not.toContain(KEY);
  });

  it('an https:// proxy: TLS to the proxy, CONNECT inside it, TLS to the target inside the tunnel', async () => {
    const through = await proxy('tunnel', { key: cert.key, cert: cert.cert });
    const env = {
      NODE_EXTRA_CA_CERTS: cert.certPath,
      HTTPS_PROXY: through.url,
      NO_PROXY: '',
      no_proxy: '',
      https_proxy: '',
    };
    const run = await runTransportChild(url, 2, env, { 'x-api-key': KEY });
    expect(run).toEqual({ code: 0, signal: null, output: 'data: secure\n\ndata: secure\n\n' });
    expect(through.connects.map((record) => record.target)).toEqual([`127.0.0.1:${url.port}`]);
    expect(through.clientBytes()).not.toContain(KEY);
  }, 30_000);

  it('an https:// proxy with an untrusted certificate is a tls failure naming the proxy', async () => {
    const through = await proxy('tunnel', { key: cert.key, cert: cert.cert });
    const error = await failure(post(new NodeHttpTransport({ HTTPS_PROXY: through.url }), url));
    expect(error.failure).toBe('tls');
    expect(error.message).toBe(
      `could not connect to the proxy 127.0.0.1:${through.port} from HTTPS_PROXY (DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate)`,
    );
    expect(through.connects).toEqual([]);
  });

  it('a tunnel where the target never answers TLS fails at the deadline naming target and proxy', async () => {
    const through = await proxy('silent-tunnel');
    const transport = new NodeHttpTransport({ HTTPS_PROXY: through.url }, { proxyAnswerTimeoutMs: 100 });
    const error = await failure(post(transport, url));
    expect(error).toMatchObject({ failure: 'connection', beforeResponse: true });
    expect(error.message).toBe(
      `no TLS answer from 127.0.0.1:${url.port} within 0.1 s through the proxy 127.0.0.1:${through.port} from HTTPS_PROXY`,
    );
  });

  it('a tunnel the proxy closes before TLS is one line naming the proxy', async () => {
    const through = await proxy('close-tunnel');
    const error = await failure(post(new NodeHttpTransport({ HTTPS_PROXY: through.url }), url));
    expect(error.failure).toBe('proxy');
    expect(error.message).toMatch(
      new RegExp(
        `^the proxy 127\\.0\\.0\\.1:${through.port} from HTTPS_PROXY closed the tunnel to 127\\.0\\.0\\.1:${url.port} before TLS was set up`,
      ),
    );
  });
});

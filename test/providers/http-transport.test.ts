/**
 * The node:http transport against loopback servers: streaming, abort, redirects, decoding, keep-alive, socket
 * failures, and a child process that must exit on its own with a pooled connection open.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeHttpTransport, TEXT_LIMIT_BYTES, type HttpResponse } from '../../src/providers/http-transport.js';
import { listenLoopback, readBody, type LoopbackServer } from '../helpers/loopback-http.js';
import { runTransportChild } from '../helpers/transport-child.js';
import { transportFailure as failure } from '../helpers/transport-failure.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => Promise<void> | void;

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Idle keep-alive connections stay open for ten minutes, so only the client can end them. */
async function serve(handler: Handler): Promise<{ url: URL; server: LoopbackServer }> {
  const server = await listenLoopback(
    'transport-test',
    async (req, res) => handler(req, res, await readBody(req)),
    (res) => res.destroy(),
    { keepAliveTimeoutMs: 600_000 },
  );
  servers.push(server);
  return { url: new URL(`http://127.0.0.1:${server.port}/v1/messages`), server };
}

function post(
  transport: NodeHttpTransport,
  url: URL,
  signal: AbortSignal = new AbortController().signal,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  return transport.post({ url, headers: { 'content-type': 'application/json', ...headers }, body: '{"n":1}', signal });
}

/** A promise and its resolver, for a server that waits on the test. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function drain(response: HttpResponse): Promise<void> {
  for await (const chunk of response.body) void chunk;
}

describe('NodeHttpTransport', () => {
  it('posts the body with its headers and hands chunks over as they arrive, not at the end', async () => {
    const second = gate();
    const seen: Array<{ method?: string; body: string; type?: string; length?: string }> = [];
    const { url } = await serve(async (req, res, body) => {
      seen.push({
        method: req.method,
        body,
        type: req.headers['content-type'],
        length: req.headers['content-length'],
      });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      // The second chunk is sent only after the client saw the first: a buffering client would wait forever.
      await second.opened;
      res.end('data: two\n\n');
    });
    const response = await post(new NodeHttpTransport({}), url);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    expect(response.headers.get('x-missing')).toBeNull();
    const chunks: string[] = [];
    for await (const chunk of response.body) {
      chunks.push(Buffer.from(chunk).toString('utf8'));
      second.open();
    }
    expect(chunks).toEqual(['data: one\n\n', 'data: two\n\n']);
    expect(seen).toEqual([{ method: 'POST', body: '{"n":1}', type: 'application/json', length: '7' }]);
  });

  it('an abort mid-stream rejects the body with failure aborted and closes the connection', async () => {
    const closed = gate();
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      req.socket.on('close', closed.open);
    });
    const controller = new AbortController();
    const response = await post(new NodeHttpTransport({}), url, controller.signal);
    const reading = (async () => {
      for await (const chunk of response.body) {
        void chunk;
        controller.abort();
      }
    })();
    expect((await failure(reading)).failure).toBe('aborted');
    // The server sees its socket closed: the connection is freed, not left to the pool or to time out.
    await closed.opened;
  });

  it('an abort while waiting for the headers rejects with failure aborted', async () => {
    const arrived = gate();
    const { url } = await serve(() => arrived.open());
    const controller = new AbortController();
    const pending = post(new NodeHttpTransport({}), url, controller.signal);
    await arrived.opened;
    controller.abort();
    expect((await failure(pending)).failure).toBe('aborted');
    const already = new AbortController();
    already.abort();
    expect((await failure(post(new NodeHttpTransport({}), url, already.signal))).failure).toBe('aborted');
  });

  it('reports a refused connection before any response as failure refused with the socket error as cause', async () => {
    const { url, server } = await serve(() => undefined);
    await server.close();
    const error = await failure(post(new NodeHttpTransport({}), url));
    expect(error.failure).toBe('refused');
    expect(error.beforeResponse).toBe(true);
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('reports a body the server breaks off as failure body_cut after the chunks that came', async () => {
    const { url } = await serve(async (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: partial\n\n');
      await new Promise((resolve) => setTimeout(resolve, 20));
      req.socket.destroy();
    });
    const response = await post(new NodeHttpTransport({}), url);
    const chunks: string[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of response.body) chunks.push(Buffer.from(chunk).toString('utf8'));
      })(),
    );
    expect(chunks).toEqual(['data: partial\n\n']);
    expect(error.failure).toBe('body_cut');
    expect(error.beforeResponse).toBe(false);
  });

  it('reports a content-length body that ends short as body_cut', async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"half":');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const response = await post(new NodeHttpTransport({}), url);
    expect((await failure(response.text())).failure).toBe('body_cut');
  });

  it('follows 307 and 308 with the same method and body, keeping credentials only on the same origin', async () => {
    const other = await serve((req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ at: 'other', method: req.method, body, key: req.headers['x-api-key'] ?? null }));
    });
    const { url } = await serve((req, res, body) => {
      if (req.url === '/v1/messages') {
        res.writeHead(307, { location: '/v2/messages' });
        res.end();
      } else if (req.url === '/v2/messages') {
        res.writeHead(308, { location: `${other.url.href}` });
        res.end(JSON.stringify({ seen: body, key: req.headers['x-api-key'] }));
      }
    });
    const sameOrigin = await serve((req, res, body) => {
      if (req.url === '/v1/messages') {
        res.writeHead(308, { location: '/moved' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ at: req.url, method: req.method, body, key: req.headers['x-api-key'] }));
    });
    const transport = new NodeHttpTransport({});
    const crossed = await post(transport, url, undefined, { 'x-api-key': 'secret' });
    expect(JSON.parse(await crossed.text())).toEqual({ at: 'other', method: 'POST', body: '{"n":1}', key: null });
    const kept = await post(transport, sameOrigin.url, undefined, { 'x-api-key': 'secret' });
    expect(JSON.parse(await kept.text())).toEqual({ at: '/moved', method: 'POST', body: '{"n":1}', key: 'secret' });
  });

  it('refuses 301, 302 and a fourth 307 hop with one redirect error naming the Location', async () => {
    let hops = 0;
    const { url } = await serve((req, res) => {
      if (req.url === '/v1/messages') {
        res.writeHead(301, { location: 'https://api.example.com/v1/messages' });
      } else if (req.url === '/found') {
        res.writeHead(302, { location: '/login?next=%2F' });
      } else {
        hops++;
        res.writeHead(307, { location: `/loop${hops}` });
      }
      res.end();
    });
    const transport = new NodeHttpTransport({});
    const moved = await failure(post(transport, url));
    expect(moved).toMatchObject({ failure: 'redirect', status: 301, location: 'https://api.example.com/v1/messages' });
    expect(moved.message).toBe('the server redirected (301) to https://api.example.com/v1/messages');
    const found = await failure(post(transport, new URL('/found', url)));
    expect(found).toMatchObject({ failure: 'redirect', status: 302, location: `${url.origin}/login?next=%2F` });
    const loop = await failure(post(transport, new URL('/loop', url)));
    expect(loop).toMatchObject({ failure: 'redirect', status: 307, location: `${url.origin}/loop4` });
    expect(hops).toBe(4);
  });

  it('never follows a redirect to another protocol, and refuses a header value Node would not send', async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(307, { location: 'file:///etc/passwd' });
      res.end();
    });
    const transport = new NodeHttpTransport({});
    expect(await failure(post(transport, url))).toMatchObject({ failure: 'redirect', location: 'file:///etc/passwd' });
    const secret = 'sk-ant-line\nbreak-0123456789';
    const refused = await failure(post(transport, url, undefined, { authorization: `Bearer ${secret}` }));
    expect(refused.failure).toBe('connection');
    expect(refused.message).toContain('authorization');
    expect(refused.message).not.toContain('line');
  });

  it('text() of an endless error page stops at its limit and drops the connection', async () => {
    const closed = gate();
    const { url } = await serve(async (req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      req.socket.on('close', closed.open);
      const page = Buffer.alloc(64 * 1024, 'x');
      while (!res.destroyed && !req.socket.destroyed) {
        if (!res.write(page)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
    });
    const response = await post(new NodeHttpTransport({}), url);
    const text = await response.text();
    expect(text.length).toBe(TEXT_LIMIT_BYTES);
    await closed.opened;
  });

  it('decodes gzip, deflate and br bodies, and a gzip stream flushed per event still arrives event by event', async () => {
    const events = 'data: {"a":1}\n\ndata: {"b":"é"}\n\n';
    const encoded: Record<string, Buffer> = {
      gzip: gzipSync(events),
      deflate: deflateSync(events),
      br: brotliCompressSync(events),
    };
    const second = gate();
    const { url } = await serve(async (req, res) => {
      const encoding = req.url?.slice(1) ?? '';
      if (encoding !== 'stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': encoding });
        res.end(encoded[encoding]);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      gzip.write('data: one\n\n');
      gzip.flush(constants.Z_SYNC_FLUSH);
      await second.opened;
      gzip.end('data: two\n\n');
    });
    const transport = new NodeHttpTransport({});
    for (const encoding of Object.keys(encoded)) {
      expect(await (await post(transport, new URL(`/${encoding}`, url))).text()).toBe(events);
    }
    const streamed = await post(transport, new URL('/stream', url));
    const chunks: string[] = [];
    for await (const chunk of streamed.body) {
      chunks.push(Buffer.from(chunk).toString('utf8'));
      second.open();
    }
    expect(chunks.join('')).toBe('data: one\n\ndata: two\n\n');
    expect(chunks[0]).toBe('data: one\n\n');
  });

  it('reports a corrupt gzip body as failure decode', async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(Buffer.from('this is not gzip at all'));
    });
    const response = await post(new NodeHttpTransport({}), url);
    expect((await failure(response.text())).failure).toBe('decode');
  });

  it('keeps one connection alive across requests, even when the caller aborts after reading the whole body', async () => {
    const { url, server } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: ok\n\n');
    });
    const transport = new NodeHttpTransport({});
    for (let index = 0; index < 3; index++) {
      // The providers abort their per-attempt signal when an attempt ends; a finished body must not lose its socket.
      const controller = new AbortController();
      await drain(await post(transport, url, controller.signal));
      controller.abort();
    }
    expect(server.connections()).toBe(1);
    const other = new NodeHttpTransport({});
    await drain(await post(other, url));
    expect(server.connections()).toBe(2);
  });

  it('a body the caller leaves early is read to its end in the background and its connection reused', async () => {
    const { url, server } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: [DONE]\n\n');
      // The end of the response comes just after the event the caller stops at.
      setImmediate(() => res.end());
    });
    const transport = new NodeHttpTransport({});
    for (let index = 0; index < 2; index++) {
      const controller = new AbortController();
      const response = await post(transport, url, controller.signal);
      for await (const chunk of response.body) {
        expect(Buffer.from(chunk).toString('utf8')).toBe('data: [DONE]\n\n');
        break;
      }
      controller.abort();
      // Give the background read time to see the end (the server sends it right away).
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(server.connections()).toBe(1);
  });

  it('retries once on a fresh connection when the pooled one turns out closed by the server', async () => {
    let requests = 0;
    const { url, server } = await serve((req, res) => {
      requests++;
      // The second request arrives on the reused socket: drop it unanswered, as a server that timed it out would.
      if (requests === 2) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`answer ${requests}`);
    });
    const transport = new NodeHttpTransport({});
    expect(await (await post(transport, url)).text()).toBe('answer 1');
    expect(await (await post(transport, url)).text()).toBe('answer 3');
    expect(server.connections()).toBe(2);
  });

  it('lets a process exit on its own while its pooled keep-alive connection is still open', async () => {
    const { url, server } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('pong');
    });
    const { code, signal, output } = await runTransportChild(url, 2);
    expect({ code, signal, output }).toEqual({ code: 0, signal: null, output: 'pongpong' });
    expect(server.connections()).toBe(1);
  }, 30_000);
});

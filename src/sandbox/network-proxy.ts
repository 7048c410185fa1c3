/**
 * The box's only way out (DESIGN.md "Sandbox"): an HTTP proxy (CONNECT tunnels and plain `http://` requests) and a
 * SOCKS5 proxy (@pondwader/socks5-server, the server Claude Code's own runtime uses), both listening on unix
 * sockets in a private directory that the box sees read-only. Inside the box (no network of its own) socat relays
 * loopback ports to them, and HTTP_PROXY / ALL_PROXY name those ports. Each connection is judged by the host name
 * it asks for (host-rules.ts), then resolved here and connected to the resolved address. Every refusal is recorded,
 * so a command that failed can be told which host the box blocked.
 */
import { lookup } from 'node:dns/promises';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createNetServer, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isPrivateAddress, judgeHost } from './host-rules.js';

export interface ProxyRules {
  allowedDomains: readonly string[];
  deniedDomains: readonly string[];
}

export interface Refusal {
  host: string;
  port: number;
  why: 'denied' | 'not-listed' | 'private-address' | 'unresolved';
  /** Milliseconds since the epoch. */
  at: number;
}

export interface NetworkProxy {
  httpSocket: string;
  socksSocket: string;
  /** Refusals since `since` (epoch ms). */
  refusalsSince(since: number): Refusal[];
  close(): Promise<void>;
}

const MAX_REFUSALS = 200;

/** Where to connect for `host`, or why not. */
async function resolveTarget(
  host: string,
  rules: ProxyRules,
): Promise<{ ok: true; address: string } | { ok: false; why: Refusal['why'] }> {
  const verdict = judgeHost(host, rules.allowedDomains, rules.deniedDomains);
  if (!verdict.allowed) return { ok: false, why: verdict.reason };
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(bare) !== 0) return { ok: true, address: bare };
  let address: string;
  try {
    address = (await lookup(bare)).address;
  } catch {
    return { ok: false, why: 'unresolved' };
  }
  if (!verdict.exact && isPrivateAddress(address)) return { ok: false, why: 'private-address' };
  return { ok: true, address };
}

function splitHostPort(target: string, fallbackPort: number): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(target);
  if (!match) return { host: target, port: fallbackPort };
  return { host: match[1] ?? target, port: match[2] === undefined ? fallbackPort : Number(match[2]) };
}

export async function startNetworkProxy(dir: string, rules: ProxyRules): Promise<NetworkProxy> {
  const refusals: Refusal[] = [];
  const refuse = (host: string, port: number, why: Refusal['why']): void => {
    refusals.push({ host, port, why, at: Date.now() });
    if (refusals.length > MAX_REFUSALS) refusals.shift();
  };
  const httpSocket = `${dir}/http.sock`;
  const socksSocket = `${dir}/socks.sock`;

  const http: Server = createHttpServer((request, response) => {
    void forwardPlain(request, response.writeHead.bind(response), response, rules, refuse);
  });
  http.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    void tunnel(request.url ?? '', client, head, rules, refuse);
  });
  http.on('clientError', (_error, socket) => socket.destroy());

  const loaded = await import('@pondwader/socks5-server');
  // The bundle sees the CommonJS build (its exports only under `default`); tsx and vitest see the ES build.
  const createSocksServer =
    typeof loaded.createServer === 'function' ? loaded.createServer : loaded.default.createServer;
  const socks = createSocksServer();
  // Our own listener hands each connection to the library, so it can be unref'd like the HTTP one.
  const socksListener = createNetServer((socket) => socks._handleConnection(socket));
  socks.setConnectionHandler((connection, sendStatus) => {
    const { destAddress: host, destPort: port } = connection;
    if (connection.command !== 'connect') {
      sendStatus('COMMAND_NOT_SUPPORTED');
      return;
    }
    void resolveTarget(host, rules).then((target) => {
      if (!target.ok) {
        refuse(host, port, target.why);
        sendStatus('CONNECTION_NOT_ALLOWED');
        connection.socket.destroy();
        return;
      }
      const upstream = connect({ host: target.address, port });
      upstream.once('connect', () => {
        sendStatus('REQUEST_GRANTED');
        connection.socket.pipe(upstream).pipe(connection.socket);
      });
      upstream.once('error', () => {
        sendStatus('HOST_UNREACHABLE');
        connection.socket.destroy();
      });
      connection.socket.once('error', () => upstream.destroy());
      connection.socket.once('close', () => upstream.destroy());
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(httpSocket, () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    socksListener.once('error', reject);
    socksListener.listen(socksSocket, () => resolve());
  });
  // The proxy never keeps mca alive: it serves commands mca itself waits for.
  http.unref();
  socksListener.unref();

  return {
    httpSocket,
    socksSocket,
    refusalsSince: (since) => refusals.filter((entry) => entry.at >= since),
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => {
          http.closeAllConnections();
          http.close(() => resolve());
        }),
        new Promise<void>((resolve) => socksListener.close(() => resolve())),
      ]);
    },
  };
}

type Refuse = (host: string, port: number, why: Refusal['why']) => void;

/** CONNECT host:port: a tunnel to the resolved address, or 403. */
async function tunnel(target: string, client: Duplex, head: Buffer, rules: ProxyRules, refuse: Refuse) {
  const { host, port } = splitHostPort(target, 443);
  client.on('error', () => undefined);
  const resolved = await resolveTarget(host, rules);
  if (!resolved.ok) {
    refuse(host, port, resolved.why);
    client.end(`HTTP/1.1 403 Forbidden\r\nX-Mca-Sandbox: ${resolved.why}\r\nContent-Length: 0\r\n\r\n`);
    return;
  }
  const upstream: Socket = connect({ host: resolved.address, port });
  upstream.once('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client).pipe(upstream);
  });
  upstream.once('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
  client.once('close', () => upstream.destroy());
}

/** `GET http://host/path`: forwarded to the resolved address with the same Host, or 403. */
async function forwardPlain(
  request: IncomingMessage,
  writeHead: (status: number, headers?: Record<string, string | string[]>) => unknown,
  response: NodeJS.WritableStream & { end(text?: string): unknown },
  rules: ProxyRules,
  refuse: Refuse,
) {
  let url: URL;
  try {
    url = new URL(request.url ?? '');
  } catch {
    writeHead(400);
    response.end('mca sandbox proxy: only absolute http:// URLs are forwarded\n');
    return;
  }
  const port = url.port === '' ? 80 : Number(url.port);
  if (url.protocol !== 'http:') {
    writeHead(400);
    response.end('mca sandbox proxy: use CONNECT for https\n');
    return;
  }
  const resolved = await resolveTarget(url.hostname, rules);
  if (!resolved.ok) {
    refuse(url.hostname, port, resolved.why);
    writeHead(403, { 'x-mca-sandbox': resolved.why });
    response.end(`mca sandbox: connections to ${url.hostname} are not allowed (${resolved.why})\n`);
    return;
  }
  const headers = { ...request.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  const upstream = httpRequest(
    {
      host: resolved.address,
      port,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
    },
    (answer) => {
      const outgoing: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) outgoing[name] = value;
      writeHead(answer.statusCode ?? 502, outgoing);
      answer.pipe(response);
    },
  );
  upstream.once('error', () => {
    writeHead(502);
    response.end();
  });
  request.pipe(upstream);
}

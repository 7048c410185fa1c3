/**
 * A loopback HTTP proxy that only tunnels (CONNECT), as corporate proxies do for https: it records every CONNECT
 * (target and Proxy-Authorization) and every byte the client sent through its tunnels, so a test can say what a
 * proxy could have read. `answer` makes it refuse with a status, accept and close the tunnel at once, never answer,
 * answer in something that is not HTTP, or accept a tunnel that leads nowhere (nothing ever comes back).
 */
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type Socket } from 'node:net';

export interface ConnectRecord {
  /** The request target of the CONNECT line, e.g. 127.0.0.1:443. */
  target: string;
  headers: IncomingHttpHeaders;
}

export type ProxyAnswer = { refuse: number } | 'close-tunnel' | 'silent' | 'not-http' | 'silent-tunnel' | 'tunnel';

export interface ConnectProxy {
  /** http://127.0.0.1:port (https:// for a TLS proxy) */
  url: string;
  port: number;
  connects: ConnectRecord[];
  /** Requests the proxy received that were not CONNECT (absolute-form). */
  plainRequests: number;
  /** Everything the client wrote into its tunnels, as latin1 text. */
  clientBytes(): string;
  answer: ProxyAnswer;
  close(): Promise<void>;
}

/** `tls` makes it an https:// proxy: the client speaks TLS to the proxy itself, and CONNECT inside that. */
export async function startConnectProxy(
  answer: ProxyAnswer = 'tunnel',
  tls?: { key: Buffer; cert: Buffer },
): Promise<ConnectProxy> {
  const sockets = new Set<Socket>();
  const seen: Buffer[] = [];
  const plain: RequestListener = (_req, res) => {
    proxy.plainRequests++;
    res.writeHead(405).end();
  };
  const server: Server = tls === undefined ? createServer(plain) : createTlsServer(tls, plain);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    proxy.connects.push({ target, headers: req.headers });
    const current = proxy.answer;
    if (typeof current === 'object') {
      client.end(
        `HTTP/1.1 ${current.refuse} Refused\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    if (current === 'silent') return;
    if (current === 'not-http') {
      client.end('SSH-2.0-OpenSSH_9.2\r\n');
      return;
    }
    if (current === 'silent-tunnel') {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      return;
    }
    if (current === 'close-tunnel') {
      client.end('HTTP/1.1 200 Connection Established\r\n\r\n');
      return;
    }
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    const upstream = connect(port, host.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) {
        seen.push(head);
        upstream.write(head);
      }
      client.on('data', (chunk: Buffer) => seen.push(chunk));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('connect-proxy: no TCP address');
  const proxy: ConnectProxy = {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${address.port}`,
    port: address.port,
    connects: [],
    plainRequests: 0,
    clientBytes: () => Buffer.concat(seen).toString('latin1'),
    answer,
    close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

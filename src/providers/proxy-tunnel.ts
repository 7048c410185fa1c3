/**
 * Connections through an HTTP proxy: a CONNECT tunnel to the target's host:port, then (for an https target) TLS
 * over the tunnel with the target's name for SNI and the normal certificate checks. The proxy sees the target's
 * host:port and, when its URL carried credentials, `Proxy-Authorization` on the CONNECT; it never sees the requests
 * of an https target, whose headers (the API key) ride inside the TLS. http targets are tunnelled the same way, so
 * proxy credentials never travel with a request.
 *
 * The agents below are keep-alive Agents whose createConnection opens a tunnel: a pooled socket is a tunnel, so
 * the pool works per target as without a proxy (one CONNECT per pooled connection, not per request).
 */
import http from 'node:http';
import type { ClientRequest, ClientRequestArgs, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { authorityOf, proxyDisplay, scrubProxySecrets, type ProxyRoute } from './proxy-env.js';
import { connectFailure, errorCode, TransportError, type TransportFailure } from './transport-error.js';

type ConnectionCallback = (error: Error | null, stream: Duplex) => void;

/** How messages name the proxy: where it is and where it was set, never its credentials. */
function named(route: ProxyRoute): string {
  return `the proxy ${proxyDisplay(route)} from ${route.variable}`;
}

/**
 * A TransportError about the proxy: one line, scrubbed of its credentials. Its failure is Node's code's (a refused
 * or unresolvable proxy is like a refused or unresolvable server) unless given; Node's error is kept in the text
 * only, so that the provider's message, built from the innermost cause, names the proxy.
 */
function proxyFailure(
  route: ProxyRoute,
  sentence: string,
  error?: unknown,
  failure?: TransportFailure,
): TransportError {
  const code = errorCode(error);
  const detail = error instanceof Error ? ` (${code === undefined ? '' : `${code}: `}${error.message})` : '';
  const kind = failure ?? (error === undefined ? 'proxy' : connectFailure(error).failure);
  return new TransportError(kind, scrubProxySecrets(`${sentence}${detail}`, route));
}

/**
 * A failure on a connection through the proxy that the tunnel did not report itself (a certificate the target
 * presented, e.g. an intercepting proxy's own; the tunnel dropping under a request): Node's classification, with
 * the proxy named so the user knows the path it took.
 */
export function failureThroughProxy(error: unknown, route: ProxyRoute): TransportError {
  if (error instanceof TransportError) return error;
  const code = errorCode(error);
  const text = error instanceof Error ? error.message : String(error);
  const message = `${code === undefined ? '' : `${code}: `}${text} (through ${named(route)})`;
  return new TransportError(connectFailure(error).failure, scrubProxySecrets(message, route));
}

function refusal(route: ProxyRoute, authority: string, status: number): TransportError {
  const reason = http.STATUS_CODES[status] ?? 'unknown status';
  let hint = '';
  if (status === 407) {
    hint =
      route.authorization === undefined
        ? `; it wants credentials: write them in ${route.variable} as http://user:password@host:port`
        : `; it did not accept the credentials in ${route.variable}`;
  }
  const message = `${named(route)} refused the tunnel to ${authority} (${status} ${reason})${hint}`;
  return new TransportError('proxy', scrubProxySecrets(message, route), { status });
}

function secondsOf(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/**
 * How long the proxy may take to accept the connection and answer CONNECT (proxies give up on a target sooner), and
 * the target to finish its TLS handshake through the tunnel.
 */
export const DEFAULT_PROXY_ANSWER_TIMEOUT_MS = 60_000;

/**
 * Opens a CONNECT tunnel to host:port; resolves with the raw socket once the proxy answers 2xx. The deadline also
 * ends a CONNECT whose request was abandoned (an abort cannot reach it through the Agent), so a silent proxy never
 * holds the process open.
 */
export async function openTunnel(
  route: ProxyRoute,
  host: string,
  port: number,
  answerTimeoutMs: number,
): Promise<Socket> {
  const authority = authorityOf(host, port);
  // An https:// proxy: the CONNECT itself goes over TLS to the proxy (loaded only then).
  const request = route.protocol === 'https:' ? (await import('node:https')).request : http.request;
  return new Promise<Socket>((resolve, reject) => {
    let reachedProxy = false;
    let req: ClientRequest;
    try {
      req = request({
        host: route.hostname,
        port: route.port,
        method: 'CONNECT',
        path: authority,
        agent: false,
        setHost: false,
        headers: {
          host: authority,
          ...(route.authorization === undefined ? {} : { 'proxy-authorization': route.authorization }),
        },
      });
    } catch (error) {
      reject(proxyFailure(route, `could not connect to ${named(route)}`, error));
      return;
    }
    req.setTimeout(answerTimeoutMs, () => {
      const sentence = `no answer to CONNECT from ${named(route)} within ${secondsOf(answerTimeoutMs)} s`;
      req.destroy(proxyFailure(route, sentence, undefined, 'connection'));
    });
    req.once('socket', (socket: Socket) => {
      socket.once(route.protocol === 'https:' ? 'secureConnect' : 'connect', () => (reachedProxy = true));
    });
    req.once('connect', (response: IncomingMessage, socket: Socket, head: Buffer) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        socket.destroy();
        reject(refusal(route, authority, status));
        return;
      }
      // The deadline was for the answer; the tunnel's own idle time is the pool's and the provider's business.
      socket.setTimeout(0);
      // Bytes the target sent right behind the proxy's answer belong to the tunnel.
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.once('error', (error) => {
      if (error instanceof TransportError) reject(error);
      else if (reachedProxy) {
        // Node's HTTP parser codes (HPE_…): something answered that does not speak HTTP (a SOCKS or TLS port).
        const what = errorCode(error)?.startsWith('HPE_')
          ? 'answered CONNECT with something that is not HTTP'
          : 'closed the connection before answering CONNECT';
        reject(proxyFailure(route, `${named(route)} ${what}`, error, 'proxy'));
      } else reject(proxyFailure(route, `could not connect to ${named(route)}`, error));
    });
    req.end();
  });
}

/** The target of an Agent's connection, as the Agent hands it over (Node strips the brackets of IPv6). */
function targetOf(options: ClientRequestArgs): { host: string; port: number } {
  return { host: options.host ?? options.hostname ?? 'localhost', port: Number(options.port) };
}

/** A keep-alive http Agent whose connections are tunnels through the proxy. */
export function tunnellingHttpAgent(route: ProxyRoute, answerTimeoutMs: number): http.Agent {
  const agent = new http.Agent({ keepAlive: true });
  agent.createConnection = (options: ClientRequestArgs, callback?: ConnectionCallback) => {
    const { host, port } = targetOf(options);
    openTunnel(route, host, port, answerTimeoutMs).then(
      (socket) => callback?.(null, socket),
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  };
  return agent;
}

/** A keep-alive https Agent whose connections are TLS over a tunnel through the proxy. */
export async function tunnellingHttpsAgent(route: ProxyRoute, answerTimeoutMs: number): Promise<http.Agent> {
  const [https, tls, net] = await Promise.all([import('node:https'), import('node:tls'), import('node:net')]);
  const agent = new https.Agent({ keepAlive: true });
  agent.createConnection = (options: ClientRequestArgs, callback?: ConnectionCallback) => {
    const { host, port } = targetOf(options);
    const fail = (error: Error): void => callback?.(error, undefined as unknown as Duplex);
    openTunnel(route, host, port, answerTimeoutMs).then((tunnel) => {
      // SNI carries a host name only; an IP target is still checked against the certificate through `host`.
      const secure = tls.connect({ socket: tunnel, host, ...(net.isIP(host) === 0 ? { servername: host } : {}) });
      const onError = (error: Error): void => {
        tunnel.destroy();
        // A certificate or TLS protocol problem stays 'tls'; anything else is the tunnel closing under us.
        if (connectFailure(error).failure === 'tls') fail(error);
        else {
          const sentence = `${named(route)} closed the tunnel to ${authorityOf(host, port)} before TLS was set up`;
          fail(proxyFailure(route, sentence, error, 'proxy'));
        }
      };
      secure.once('error', onError);
      // The same deadline for the handshake: a request abandoned meanwhile cannot end it either.
      secure.setTimeout(answerTimeoutMs, () => {
        const within = `within ${secondsOf(answerTimeoutMs)} s`;
        const sentence = `no TLS answer from ${authorityOf(host, port)} ${within} through ${named(route)}`;
        secure.off('error', onError);
        secure.destroy();
        fail(proxyFailure(route, sentence, undefined, 'connection'));
      });
      secure.once('secureConnect', () => {
        secure.off('error', onError);
        secure.setTimeout(0);
        callback?.(null, secure);
      });
    }, fail);
    return undefined;
  };
  return agent;
}

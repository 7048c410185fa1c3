/**
 * The one-shot loopback server the authorization server sends the browser back to: it listens on 127.0.0.1 only
 * (a random port, or `oauth.callbackPort`), answers GET /callback once, and closes. The callback must carry the
 * `state` this sign-in sent (else it is refused: a page that guessed the port cannot inject its own code), and it
 * must come within `timeoutMs`. An `error` answer is reported by its code only (its description is the server's
 * prose, possibly hostile). Other paths get 404 and do not end the wait.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpSignInError, safeText } from './errors.js';

export const CALLBACK_PATH = '/callback';

export interface CallbackServer {
  /** What the authorization server redirects to. */
  readonly redirectUrl: string;
  /** The callback's query (code, state, iss), once it arrived with the right state. */
  wait(): Promise<URLSearchParams>;
  close(): Promise<void>;
}

export interface CallbackOptions {
  /** A fixed port (a pre-registered client's redirect URI names it); 0 or absent: any free port. */
  port?: number;
  state: string;
  timeoutMs: number;
}

const PAGE = (message: string): string =>
  `<!doctype html><meta charset="utf-8"><title>mca</title><p>${message}</p><p>You can close this tab.</p>\n`;

export async function startCallbackServer(options: CallbackOptions): Promise<CallbackServer> {
  let settle: { resolve: (params: URLSearchParams) => void; reject: (error: Error) => void } | undefined;
  let outcome: { params?: URLSearchParams; error?: Error } | undefined;
  const finish = (result: { params?: URLSearchParams; error?: Error }): void => {
    if (outcome) return;
    outcome = result;
    if (result.params) settle?.resolve(result.params);
    else if (result.error) settle?.reject(result.error);
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const reply = (status: number, message: string): void => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(PAGE(message));
    };
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH || outcome) {
      reply(404, 'Not found.');
      return;
    }
    const params = url.searchParams;
    if (params.get('state') !== options.state) {
      reply(400, 'This sign-in answer does not belong to the sign-in mca started; nothing was saved.');
      finish({
        error: new McpSignInError('the sign-in callback carried a state that does not match; nothing was saved'),
      });
      return;
    }
    const error = params.get('error');
    if (error !== null) {
      reply(400, 'The sign-in was not completed.');
      const code = safeText(error.replace(/[^A-Za-z0-9_.-]/g, ''), 60) || 'unknown';
      finish({ error: new McpSignInError(`the authorization server refused the sign-in (${code})`) });
      return;
    }
    if (!params.get('code')) {
      reply(400, 'The sign-in answer has no code.');
      finish({ error: new McpSignInError('the sign-in callback carried no authorization code') });
      return;
    }
    reply(200, 'Signed in to mca.');
    finish({ params });
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new McpSignInError(
          error.code === 'EADDRINUSE'
            ? `the sign-in callback port ${options.port ?? 0} is in use (oauth.callbackPort)`
            : `cannot listen for the sign-in callback: ${error.code ?? error.message}`,
        ),
      ),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // A pre-registered client was registered (as Claude Code documents) with http://localhost:PORT/callback.
  const host = options.port ? 'localhost' : '127.0.0.1';
  const timer = setTimeout(
    () =>
      finish({
        error: new McpSignInError(
          `no sign-in answer arrived within ${Math.round(options.timeoutMs / 1000)} s (was the browser page completed?)`,
        ),
      }),
    options.timeoutMs,
  );
  timer.unref();

  return {
    redirectUrl: `http://${host}:${port}${CALLBACK_PATH}`,
    wait: () =>
      new Promise<URLSearchParams>((resolve, reject) => {
        if (outcome?.params) resolve(outcome.params);
        else if (outcome?.error) reject(outcome.error);
        else settle = { resolve, reject };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        finish({ error: new McpSignInError('the sign-in was cancelled') });
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Times the requests an HTTP server in this process handles, from Node's own http diagnostics channels, so the
 * fake API server needs no hooks: a request's arrival is `http.server.request.start` (its headers are parsed) and
 * its end is `http.server.response.finish` (the last byte of the answer is handed to the socket). "Server time" is
 * the sum of end − arrival over the requests of one run: the fake's own share of a client's wall time, which
 * includes reading the request body and writing the SSE stream.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface ServerClock {
  /** performance.now() of each request's arrival since the last reset. */
  readonly arrivals: readonly number[];
  /** performance.now() when each answer was finished, in the order of `arrivals` (NaN while pending). */
  readonly finishes: readonly number[];
  /** Sum of (answer finished − arrival) over the requests since the last reset, in ms. */
  serverMs(): number;
  /** Requests that arrived since the last reset and have not finished. */
  pending(): number;
  reset(): void;
  close(): void;
}

interface ServerMessage {
  request: IncomingMessage;
  socket: Socket;
}

const START = 'http.server.request.start';
const FINISH = 'http.server.response.finish';

/** Watches the server listening on `port` (other servers of this process are ignored). */
export function watchServer(port: number): ServerClock {
  let arrivals: number[] = [];
  let finishes: number[] = [];
  let open = new Map<IncomingMessage, { at: number; index: number }>();
  let total = 0;
  const ours = (message: unknown): message is ServerMessage =>
    (message as ServerMessage).socket?.localPort === port && (message as ServerMessage).request !== undefined;
  const onStart = (message: unknown) => {
    if (!ours(message)) return;
    const now = performance.now();
    open.set(message.request, { at: now, index: arrivals.length });
    arrivals.push(now);
    finishes.push(Number.NaN);
  };
  const onFinish = (message: unknown) => {
    if (!ours(message)) return;
    const started = open.get(message.request);
    if (started === undefined) return;
    open.delete(message.request);
    const now = performance.now();
    finishes[started.index] = now;
    total += now - started.at;
  };
  subscribe(START, onStart);
  subscribe(FINISH, onFinish);
  return {
    get arrivals() {
      return arrivals;
    },
    get finishes() {
      return finishes;
    },
    serverMs: () => total,
    pending: () => open.size,
    reset() {
      arrivals = [];
      finishes = [];
      open = new Map();
      total = 0;
    },
    close() {
      unsubscribe(START, onStart);
      unsubscribe(FINISH, onFinish);
    },
  };
}

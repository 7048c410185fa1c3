/**
 * The MCP transport to an in-process server of an Agent SDK host (`createSdkMcpServer`): each JSON-RPC message mca's
 * client sends goes to the host wrapped in a `mcp_message` control request, and the host's `mcp_response` is the
 * server's answer. The host may have captured the server's `initialize` and `tools/list` results already (SDK
 * 0.3.x `sdkMcpServerManifests`): those two are then answered here without a round trip (the server already had
 * its `notifications/initialized`). Everything the host sends is checked as JSON-RPC; a malformed answer becomes a
 * JSON-RPC error for the request it answers, never a throw.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { McpLibrary } from './load-client.js';
import { isRecord } from '../text/json-guards.js';

/** Sends one message to the host's server; resolves with the host's `mcp_response` (or why there is none). */
export type HostMessenger = (
  message: JSONRPCMessage,
) => Promise<{ ok: true; response: unknown } | { ok: false; error: string }>;

/** What the host captured of one server before it initialized mca. */
export interface ServerManifest {
  initializeResult?: Record<string, unknown>;
  toolsListResult?: Record<string, unknown>;
}

/** A manifest from the initialize request, or undefined when it is not one. */
export function manifestOf(raw: unknown): ServerManifest | undefined {
  if (!isRecord(raw)) return undefined;
  const manifest: ServerManifest = {};
  if (isRecord(raw.initializeResult)) manifest.initializeResult = raw.initializeResult;
  if (isRecord(raw.toolsListResult)) manifest.toolsListResult = raw.toolsListResult;
  return manifest.initializeResult ? manifest : undefined;
}

const INTERNAL_ERROR = -32603;

export class HostServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private closed = false;
  private listedFromManifest = false;

  constructor(
    private readonly send_: HostMessenger,
    private readonly library: McpLibrary,
    private readonly manifest: ServerManifest | undefined,
  ) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the connection to the host is closed'));
    const local = this.fromManifest(message);
    if (local !== undefined) {
      if (local !== null) queueMicrotask(() => this.deliver(local));
      return Promise.resolve();
    }
    const id = 'id' in message && 'method' in message ? message.id : undefined;
    void this.send_(message).then((answer) => {
      if (id === undefined || this.closed) return; // a notification (or a response): the host's ack is not news
      this.deliver(this.answerOf(id, answer));
    });
    return Promise.resolve();
  }

  /** A message the server sent on its own (a notification such as `tools/list_changed`), passed on by the host. */
  fromHost(raw: unknown): void {
    if (this.closed || !this.library.isJSONRPCNotification(raw)) return;
    this.deliver(raw);
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.onclose?.();
    }
    return Promise.resolve();
  }

  private deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  /** The manifest's answer to `message`: a message, null (swallowed), or undefined (ask the host). */
  private fromManifest(message: JSONRPCMessage): JSONRPCMessage | null | undefined {
    if (!this.manifest?.initializeResult || !('method' in message)) return undefined;
    if (message.method === 'notifications/initialized') return null;
    if (!('id' in message)) return undefined;
    if (message.method === 'initialize') {
      return { jsonrpc: '2.0', id: message.id, result: this.manifest.initializeResult } as JSONRPCMessage;
    }
    const params = 'params' in message && isRecord(message.params) ? message.params : {};
    if (
      message.method === 'tools/list' &&
      this.manifest.toolsListResult &&
      !this.listedFromManifest &&
      !params.cursor
    ) {
      // Only the first listing: after `tools/list_changed` the host's server is asked again.
      this.listedFromManifest = true;
      return { jsonrpc: '2.0', id: message.id, result: this.manifest.toolsListResult } as JSONRPCMessage;
    }
    return undefined;
  }

  private answerOf(
    id: string | number,
    answer: { ok: true; response: unknown } | { ok: false; error: string },
  ): JSONRPCMessage {
    const failure = (text: string): JSONRPCMessage =>
      ({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: text } }) as JSONRPCMessage;
    if (!answer.ok) return failure(`the SDK host answered with an error: ${answer.error}`);
    const response = answer.response;
    if (!this.library.isJSONRPCResponse(response)) return failure('the SDK host sent a malformed mcp_response');
    // The answer is the one to this request whatever id the host wrote.
    return { ...response, id } as JSONRPCMessage;
  }
}

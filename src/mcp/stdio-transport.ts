/**
 * The stdio transport, mca's own rather than the library's: the server runs in its own process group (detached),
 * tracked with Bash's groups (tools/processes/process-group.ts) so every exit path of mca (normal, Ctrl-C, SIGTERM, the
 * 'exit' hook) ends the whole group, grandchildren included (`npx` → node). Its stderr is kept only as a bounded
 * tail (for the one-line failure reason), never printed. A server that floods stdout without newlines overruns
 * the bounded read buffer, which closes the connection instead of growing mca's memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnvironment, type EnvironmentView } from '../config/child-environment.js';
import type { ProjectCommandBox } from '../tools/processes/bash-box.js';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import {
  descendantGroups,
  terminateGroup,
  trackGroup,
  trackMarker,
  untrackGroup,
  untrackMarker,
} from '../tools/processes/process-group.js';
import type { McpLibrary } from './load-client.js';
import { LineReader } from '../text/line-reader.js';

/** One JSON-RPC message may be at most this large (a tool result with an image fits; a flood does not). */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
const STDERR_TAIL_BYTES = 4096;
const CLOSE_GRACE_MS = 1000;

export interface StdioLaunch {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
  /** The runtime's environment: the server's variables go over it (absent: process.env with the session's overlay). */
  base?: EnvironmentView;

  /** Runs the server in the sandbox (a project-scoped server while the box is on); undefined: as is. */
  box?: ProjectCommandBox | undefined;
}

/** `exec 'a' 'b'`: an argument list as one shell line (each word single-quoted). */
function shellLine(command: string, args: readonly string[]): string {
  return `exec ${[command, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')}`;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcess | undefined;
  private stderrTail = '';
  private closed = false;
  private readonly buffer = new LineReader(MAX_MESSAGE_BYTES);
  private finished = false;
  /** In the server's environment and so in every helper it starts: how those are found at close (process-group.ts). */
  private readonly marker = `MCA_MCP_SERVER_ID=${randomUUID()}`;

  constructor(
    private readonly launch: StdioLaunch,
    private readonly library: McpLibrary,
  ) {}

  /** The last few KB the server wrote to stderr, for a failure message. */
  stderr(): string {
    return this.stderrTail;
  }

  async start(): Promise<void> {
    // The marker names the server's processes, so every one it leaves behind (double-forked too) can be ended.
    const env = {
      ...childEnvironment(this.launch.env, this.launch.base),
      MCA_MCP_SERVER_ID: this.marker.slice('MCA_MCP_SERVER_ID='.length),
    };
    const boxed = await this.launch.box?.(shellLine(this.launch.command, this.launch.args), env);
    const spec = boxed ?? { file: this.launch.command, args: [...this.launch.args], env };
    return await new Promise((resolve, reject) => {
      const child = spawn(spec.file, spec.args, {
        cwd: this.launch.cwd,
        env: spec.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) trackGroup(child.pid);
        trackMarker(this.marker);
        resolve();
      });
      child.once('close', () => {
        void boxed?.finish({ failed: false, stdout: '', stderr: '' });
        this.finish();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
    });
  }

  private receive(chunk: Buffer): void {
    let lines: string[];
    try {
      lines = this.buffer.push(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (const line of lines) {
      if (line.trim() === '') continue;
      let message: JSONRPCMessage;
      try {
        message = this.library.deserializeMessage(line);
      } catch (error) {
        // A line that is not JSON (a server's log line) is skipped, as the library does; JSON that is not
        // JSON-RPC is reported and skipped. Either way the connection goes on.
        if (!(error instanceof SyntaxError)) this.onerror?.(error as Error);
        continue;
      }
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed || stdin.destroyed) {
        reject(new Error('the server is not running'));
        return;
      }
      if (stdin.write(this.library.serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return;
    this.closed = true;
    try {
      child.stdin?.end();
    } catch {
      // already gone
    }
    if (child.pid !== undefined) {
      // Helpers the server moved out of its group (detached) end with it too, found while it still lives.
      const helpers = await descendantGroups(child.pid);
      await Promise.all([child.pid, ...helpers].map((pgid) => terminateGroup(pgid, CLOSE_GRACE_MS)));
      untrackGroup(child.pid);
    }
    // Whatever carries the server's marker (a helper that double-forked, or escaped the scan above) ends too.
    untrackMarker(this.marker);
    // A process that escaped even that (a double fork) may still hold the pipes: they must not keep mca alive.
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
    this.finish();
  }

  private finish(): void {
    const child = this.child;
    if (child?.pid !== undefined && child.exitCode !== null) untrackGroup(child.pid);
    this.buffer.clear();
    if (this.finished) return;
    this.finished = true;
    this.onclose?.();
  }
}

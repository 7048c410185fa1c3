/**
 * An editor for the ACP e2e tests: the SDK's ClientApp with permission answers, a buffer-backed file system and
 * real terminals (each `terminal/create` spawns the command in its own process group, as an editor's terminal
 * does; `terminal/kill` ends the group and answers once it is gone). It records what mca asked of it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';
import type { AcpChild } from './acp-client.js';

interface Terminal {
  child: ChildProcess;
  output: string;
  truncated: boolean;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
}

export interface Editor {
  agent: acp.ClientContext;
  updates: acp.SessionNotification[];
  asked: acp.RequestPermissionRequest[];
  writes: acp.WriteTextFileRequest[];
  /** Option ids the next permission questions are answered with (none left: allow_once). */
  answers: string[];
  created: acp.CreateTerminalRequest[];
  /** The terminal requests in arrival order, as `method id`. */
  terminalCalls: string[];
  /** When set, `terminal/create` waits for it before it makes the terminal (a slow editor). */
  createGate?: Promise<void> | undefined;
  close(): void;
}

export function connectEditor(child: AcpChild, buffers: Record<string, string> = {}): Editor {
  const terminals = new Map<string, Terminal>();
  let made = 0;
  const editor: Omit<Editor, 'agent' | 'close'> = {
    updates: [],
    asked: [],
    writes: [],
    answers: [],
    created: [],
    terminalCalls: [],
  };
  const terminal = (id: string): Terminal => {
    const found = terminals.get(id);
    if (!found) throw acp.RequestError.resourceNotFound(id);
    return found;
  };
  const stop = async (id: string): Promise<void> => {
    const { child: process, exit } = terminal(id);
    if (process.exitCode === null && process.signalCode === null && process.pid !== undefined) {
      try {
        globalThis.process.kill(-process.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await exit;
  };
  const app = acp
    .client({ name: 'acp-editor' })
    .onNotification('session/update', ({ params }) => void editor.updates.push(params))
    .onRequest('session/request_permission', ({ params }) => {
      editor.asked.push(params);
      return { outcome: { outcome: 'selected', optionId: editor.answers.shift() ?? 'allow_once' } };
    })
    .onRequest('fs/read_text_file', ({ params }) => ({
      content: buffers[params.path] ?? readFileSync(params.path, 'utf8'),
    }))
    .onRequest('fs/write_text_file', ({ params }) => {
      editor.writes.push(params);
      buffers[params.path] = params.content;
      return {};
    })
    .onRequest('terminal/create', async ({ params }) => {
      editor.created.push(params);
      await editor.createGate;
      made += 1;
      const id = `term-${made}`;
      editor.terminalCalls.push(`create ${id}`);
      const env = Object.fromEntries((params.env ?? []).map((entry) => [entry.name, entry.value]));
      const process = spawn(params.command, params.args ?? [], {
        cwd: params.cwd ?? undefined,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const limit = params.outputByteLimit ?? Number.MAX_SAFE_INTEGER;
      const entry: Terminal = {
        child: process,
        output: '',
        truncated: false,
        exit: new Promise((resolve) => process.on('close', (exitCode, signal) => resolve({ exitCode, signal }))),
      };
      const take = (chunk: Buffer): void => {
        entry.output += chunk.toString();
        if (Buffer.byteLength(entry.output) > limit) {
          entry.output = entry.output.slice(-limit);
          entry.truncated = true;
        }
      };
      process.stdout?.on('data', take);
      process.stderr?.on('data', take);
      terminals.set(id, entry);
      return { terminalId: id };
    })
    .onRequest('terminal/output', async ({ params }) => {
      editor.terminalCalls.push(`output ${params.terminalId}`);
      const entry = terminal(params.terminalId);
      const done = entry.child.exitCode !== null || entry.child.signalCode !== null;
      return {
        output: entry.output,
        truncated: entry.truncated,
        ...(done ? { exitStatus: await entry.exit } : {}),
      };
    })
    .onRequest('terminal/wait_for_exit', async ({ params }) => {
      editor.terminalCalls.push(`wait_for_exit ${params.terminalId}`);
      return await terminal(params.terminalId).exit;
    })
    .onRequest('terminal/kill', async ({ params }) => {
      editor.terminalCalls.push(`kill ${params.terminalId}`);
      await stop(params.terminalId);
      return {};
    })
    .onRequest('terminal/release', async ({ params }) => {
      editor.terminalCalls.push(`release ${params.terminalId}`);
      await stop(params.terminalId);
      terminals.delete(params.terminalId);
      return {};
    });
  const connection = app.connect(child.stream);
  return Object.assign(editor, {
    agent: connection.agent,
    close: () => {
      for (const id of terminals.keys()) void stop(id).catch(() => undefined);
      connection.close();
    },
  });
}

export function updatesOf<K extends acp.SessionUpdate['sessionUpdate']>(editor: Editor, kind: K) {
  return editor.updates
    .map((notification) => notification.update)
    .filter((update): update is Extract<acp.SessionUpdate, { sessionUpdate: K }> => update.sessionUpdate === kind);
}

export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

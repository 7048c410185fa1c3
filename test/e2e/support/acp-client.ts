/**
 * A real ACP client for the built `mca --acp`: the SDK's ClientApp over the child's stdio. Every line mca writes
 * is kept and checked against the JSON schema the SDK package ships (the message as a whole, and its params or
 * result against the exact type of its method); `problems` lists every message that does not conform.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import type { ReadableStream, WritableStream } from 'node:stream/web';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as acp from '@agentclientprotocol/sdk';
import { BINARY } from './repl-launch.js';

const require = createRequire(import.meta.url);
const sdkDir = dirname(dirname(dirname(dirname(require.resolve('@agentclientprotocol/sdk')))));
const schema = JSON.parse(readFileSync(join(sdkDir, 'schema/v1/schema.json'), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: false });
// The schema's numeric formats (Rust integer widths) are not JSON Schema formats: the types already check them.
for (const format of ['int32', 'int64', 'uint16', 'uint32', 'uint64', 'double', 'uri']) ajv.addFormat(format, true);
ajv.addSchema(schema, 'acp');
const wholeMessage = ajv.getSchema('acp')!;
const typeCheck = (name: string) => ajv.getSchema(`acp#/$defs/${name}`)!;

/** The schema type of the result mca sends for each client request method. */
const RESULT_TYPES: Record<string, string> = {
  initialize: 'InitializeResponse',
  authenticate: 'AuthenticateResponse',
  'session/new': 'NewSessionResponse',
  'session/load': 'LoadSessionResponse',
  'session/resume': 'ResumeSessionResponse',
  'session/list': 'ListSessionsResponse',
  'session/prompt': 'PromptResponse',
  'session/set_mode': 'SetSessionModeResponse',
  'session/close': 'CloseSessionResponse',
};
const REQUEST_TYPES: Record<string, string> = {
  'session/request_permission': 'RequestPermissionRequest',
  'fs/read_text_file': 'ReadTextFileRequest',
  'fs/write_text_file': 'WriteTextFileRequest',
  'terminal/create': 'CreateTerminalRequest',
  'terminal/output': 'TerminalOutputRequest',
  'terminal/wait_for_exit': 'WaitForTerminalExitRequest',
  'terminal/kill': 'KillTerminalRequest',
  'terminal/release': 'ReleaseTerminalRequest',
};

export interface AcpChild {
  child: ChildProcess;
  /** Every JSON-RPC message mca wrote, parsed. */
  sent: Array<Record<string, unknown>>;
  /** Messages that do not match the schema (with ajv's errors), and stdout lines that are not JSON. */
  problems: string[];
  stderr: () => string;
  /** Writes a raw line to mca's stdin (malformed input tests). */
  raw(line: string): void;
  exited: Promise<number | null>;
  /** The stream the SDK client talks over (the child's stdio, tapped). */
  stream: acp.Stream;
}

/** `program`: the script node runs (default: the built mca; Zed's adapter in zed-adapter.test.ts). */
export function spawnAcp(
  cwd: string,
  env: Record<string, string>,
  args: string[] = ['--acp'],
  program: string = BINARY,
): AcpChild {
  const child = spawn(process.execPath, [program, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const sent: Array<Record<string, unknown>> = [];
  const problems: string[] = [];
  const methods = new Map<unknown, string>();
  let stderr = '';
  let pending = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const check = (line: string): void => {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      problems.push(`not JSON: ${line.slice(0, 200)}`);
      return;
    }
    sent.push(message);
    const failures: string[] = [];
    if (!wholeMessage(message)) failures.push(ajv.errorsText(wholeMessage.errors));
    const method = typeof message.method === 'string' ? message.method : undefined;
    if (method === 'session/update' && !typeCheck('SessionNotification')(message.params)) {
      failures.push(ajv.errorsText(typeCheck('SessionNotification').errors));
    }
    const requestType = method === undefined ? undefined : REQUEST_TYPES[method];
    if (requestType && !typeCheck(requestType)(message.params))
      failures.push(ajv.errorsText(typeCheck(requestType).errors));
    if (method === undefined && 'result' in message) {
      const type = RESULT_TYPES[methods.get(message.id) ?? ''];
      if (type && !typeCheck(type)(message.result)) failures.push(ajv.errorsText(typeCheck(type).errors));
    }
    if (failures.length > 0) problems.push(`${line.slice(0, 300)} → ${failures.join('; ')}`);
  };
  const toClient = new PassThrough();
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim() !== '') check(line);
      newline = pending.indexOf('\n');
    }
    toClient.write(chunk);
  });
  child.stdout!.on('end', () => toClient.end());
  // The requests the client sends, so each result is checked against its method's type.
  const toChild = new PassThrough();
  let outgoing = '';
  toChild.on('data', (chunk: Buffer) => {
    outgoing += chunk.toString();
    let newline = outgoing.indexOf('\n');
    while (newline !== -1) {
      const line = outgoing.slice(0, newline);
      outgoing = outgoing.slice(newline + 1);
      try {
        const message = JSON.parse(line) as { id?: unknown; method?: unknown };
        if (message.id !== undefined && typeof message.method === 'string') methods.set(message.id, message.method);
      } catch {
        // A raw malformed line written by a test.
      }
      newline = outgoing.indexOf('\n');
    }
    child.stdin!.write(chunk);
  });
  toChild.on('end', () => child.stdin!.end());
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    sent,
    problems,
    stderr: () => stderr,
    raw: (line) => toChild.write(`${line}\n`),
    exited,
    stream: acp.ndJsonStream(
      Writable.toWeb(toChild) as WritableStream<Uint8Array>,
      Readable.toWeb(toClient) as ReadableStream<Uint8Array>,
    ),
  };
}

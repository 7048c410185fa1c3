/**
 * A subagent run as its sidecar transcript keeps it (`<session-id>.agents/<call-id>.jsonl`, beside the session
 * file): which subagent, its task, and its steps (one per tool call, in order) for the REPL's verbose transcript
 * (Ctrl-O) and `/agents`. Reads are synchronous and bounded (the file's first MAX_TRANSCRIPT_BYTES, at most
 * MAX_RUNS files): the files are mca's own, but a long run must not stall a redraw.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isMessage } from '../store/session-records.js';
import { isRecord, isString } from '../text/json-guards.js';

/** Bytes of a transcript read for its steps; a longer run lists the steps in that part and says so. */
export const MAX_TRANSCRIPT_BYTES = 2 * 1024 * 1024;
/** Runs `/agents` lists (the newest). */
export const MAX_RUNS = 50;

export interface SubagentStep {
  tool: string;
  input: unknown;
  failed: boolean;
}

export interface SubagentRun {
  /** The Agent call's id (the file's name). */
  id: string;
  agent: string;
  /** The task the subagent was given (its first user message). */
  prompt: string;
  steps: SubagentStep[];
  /** The transcript was longer than what was read. */
  cut: boolean;
  path: string;
  mtimeMs: number;
}

/** Where a session's subagent transcripts go: `<session file without .jsonl>.agents/`. */
export function subagentTranscriptDir(sessionFile: string): string {
  return `${sessionFile.replace(/\.jsonl$/, '')}.agents`;
}

function readHead(path: string): { text: string; cut: boolean } {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(MAX_TRANSCRIPT_BYTES, statSync(path).size));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const cut = statSync(path).size > read;
    const text = buffer.subarray(0, read).toString('utf8');
    // A cut read drops its partial last line.
    return { text: cut ? text.slice(0, text.lastIndexOf('\n') + 1) : text, cut };
  } finally {
    closeSync(fd);
  }
}

function failed(content: string): boolean {
  try {
    const parsed: unknown = JSON.parse(content);
    return isRecord(parsed) && parsed.status === 'error';
  } catch {
    return /^\s*\{?\s*"?status"?\s*:\s*"?error/.test(content);
  }
}

/** The run one transcript holds; undefined when it cannot be read. */
export function readSubagentRun(path: string): SubagentRun | undefined {
  let head: { text: string; cut: boolean };
  let mtimeMs: number;
  try {
    head = readHead(path);
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
  const run: SubagentRun = {
    id: basename(path, '.jsonl'),
    agent: '?',
    prompt: '',
    steps: [],
    cut: head.cut,
    path,
    mtimeMs,
  };
  for (const line of head.text.split('\n')) {
    if (line.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(record)) continue;
    if (record.type === 'meta' && isString(record.sessionId)) run.agent = record.sessionId.replace(/^subagent-/, '');
    if (record.type !== 'message' || !isMessage(record.message)) continue;
    const { message } = record;
    if (message.role === 'user' && run.prompt === '') run.prompt = message.content;
    const action = message.metadata.action;
    if (message.role === 'tool' && action) {
      run.steps.push({ tool: action.tool, input: action.input, failed: failed(message.content) });
    }
  }
  return run;
}

/** The runs kept in `dir`, newest last, at most MAX_RUNS (only those are read); none when there is no such dir. */
export function listSubagentRuns(dir: string): { runs: SubagentRun[]; more: number } {
  let files: Array<{ path: string; mtimeMs: number }>;
  try {
    files = readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl'))
      .flatMap((name) => {
        try {
          return [{ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }];
        } catch {
          return [];
        }
      });
  } catch {
    return { runs: [], more: 0 };
  }
  files.sort((a, b) => a.mtimeMs - b.mtimeMs);
  const runs = files
    .slice(-MAX_RUNS)
    .map((file) => readSubagentRun(file.path))
    .filter((run): run is SubagentRun => run !== undefined);
  return { runs, more: Math.max(0, files.length - MAX_RUNS) };
}

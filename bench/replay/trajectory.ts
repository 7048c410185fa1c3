/**
 * Loads the recorded sessions of bench/data/trajectories (one JSON event per line, see bench/data/README.md)
 * into model steps. A model call happened at every step: a step is one tool call (with the assistant text
 * that directly preceded it as its thought), or a trailing assistant text with no call (a final answer).
 *
 * Choices (documented in BENCHMARKS.md):
 * - The first user event is the task. Later user events in mini-swe-agent recordings are the harness's
 *   format nags ("No tool calls found in the response…"); they are an artifact of that agent's protocol, not
 *   user input, so they are dropped (and counted).
 * - A call without a recorded result (the final `submit` / `COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`) ends
 *   the task: it is the final step and carries no observation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface RecordedCall {
  /** The recorded agent's tool name: bash, open, edit, create, find_file, submit … */
  tool: string;
  input: Record<string, unknown>;
  /** The tool result exactly as the recorded model saw it; undefined when none was recorded. */
  output?: string;
  isError?: boolean;
}

export interface RecordedStep {
  /** The assistant text of this step ('' when the recording has none). */
  text: string;
  call?: RecordedCall;
}

export interface RecordedSession {
  name: string;
  task: string;
  steps: RecordedStep[];
  /** Mid-session user events dropped as harness nags. */
  droppedUserEvents: number;
}

interface RawEvent {
  type?: unknown;
  text?: unknown;
  tool?: unknown;
  input?: unknown;
  output?: unknown;
  is_error?: unknown;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Parses one session's JSONL text. Unknown or malformed lines are skipped. */
export function parseSession(name: string, jsonl: string): RecordedSession {
  const session: RecordedSession = { name, task: '', steps: [], droppedUserEvents: 0 };
  let pendingText: string | undefined;
  let sawTask = false;
  for (const line of jsonl.split('\n')) {
    if (line.trim() === '') continue;
    let event: RawEvent;
    try {
      event = JSON.parse(line) as RawEvent;
    } catch {
      continue;
    }
    const text = typeof event.text === 'string' ? event.text : '';
    if (event.type === 'user') {
      if (!sawTask) {
        session.task = text;
        sawTask = true;
      } else session.droppedUserEvents += 1;
    } else if (event.type === 'assistant') {
      // Two texts in a row: the first was a step of its own (a reply with no call).
      if (pendingText !== undefined) session.steps.push({ text: pendingText });
      pendingText = text;
    } else if (event.type === 'tool_call') {
      const tool = typeof event.tool === 'string' ? event.tool : 'bash';
      session.steps.push({ text: pendingText ?? '', call: { tool, input: asRecord(event.input) } });
      pendingText = undefined;
    } else if (event.type === 'tool_result') {
      const last = session.steps[session.steps.length - 1];
      if (last?.call !== undefined && last.call.output === undefined) {
        last.call.output = typeof event.output === 'string' ? event.output : '';
        if (typeof event.is_error === 'boolean') last.call.isError = event.is_error;
      }
    }
  }
  if (pendingText !== undefined) session.steps.push({ text: pendingText });
  return session;
}

/** All sessions of a directory, sorted by file name (the fixed order long days use). */
export function loadSessions(dir: string): RecordedSession[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.jsonl'))
    .sort()
    .map((file) => parseSession(basename(file, '.jsonl'), readFileSync(join(dir, file), 'utf8')));
}

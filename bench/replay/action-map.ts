/**
 * Builds the mca action and a synthetic ToolEnvelope from a recorded call, so the real ToolResultCompressor
 * runs on realistic data. `envelope.text` is always the recorded output itself: the full observation every
 * strategy shows during the turn.
 */
import type { ToolEnvelope } from '../../src/tools/registry/envelope.js';
import type {
  BashData,
  EditData,
  GlobData,
  GrepData,
  LsData,
  ReadData,
  WriteData,
} from '../../src/tools/registry/tool-data.js';
import { classifyCall, commandOf, type Classified } from './classify.js';
import { grepMatches, numberedLines, outputLines, unwrapOutput } from './recorded-output.js';
import type { RecordedCall } from './trajectory.js';

export type McaToolName = 'Read' | 'Grep' | 'LS' | 'Glob' | 'Edit' | 'Write' | 'Bash';

export interface MappedAction {
  tool: McaToolName;
  input: Record<string, unknown>;
  envelope: ToolEnvelope;
}

function envelope(data: object, text: string, failed: boolean, message: string): ToolEnvelope {
  const base = { data: data as Record<string, unknown>, text, stats: { durationMs: 0 }, context: {} };
  if (!failed) return { status: 'success', ...base };
  return { status: 'error', ...base, error: { code: 'EXECUTION_ERROR', message: message.slice(0, 500) } };
}

function diffOf(found: Extract<Classified, { kind: 'Edit' }>): string {
  const lines: string[] = [`--- a/${found.path}`, `+++ b/${found.path}`];
  if (found.startLine !== undefined) lines.push(`@@ -${found.startLine} @@`);
  for (const line of (found.oldString ?? '').split('\n')) if (found.oldString) lines.push(`-${line}`);
  for (const line of (found.newString ?? '').split('\n')) if (found.newString) lines.push(`+${line}`);
  return lines.join('\n');
}

function build(found: Classified, call: RecordedCall): MappedAction {
  const text = call.output ?? '';
  const { exitCode, body } = unwrapOutput(text, call.isError);
  const failed = exitCode !== null && exitCode !== 0;
  switch (found.kind) {
    case 'Read': {
      const view = numberedLines(body, found.startLine);
      const total = /\((\d+) lines total\)/.exec(body);
      const data: ReadData = {
        path: found.path,
        start_line: view.first,
        end_line: view.last,
        total_lines: total !== null ? Number(total[1]) : view.last,
        content: view.content,
        truncated: false,
        mtime_ms: 0,
      };
      const input = { path: found.path, start_line: found.startLine, limit: Math.max(1, view.count) };
      return { tool: 'Read', input, envelope: envelope(data, text, failed, body) };
    }
    case 'Grep': {
      const { matches } = grepMatches(body);
      const data: GrepData = {
        pattern: found.pattern,
        path: found.path,
        total: matches.length,
        matches,
        truncated: false,
        engine: 'ripgrep',
      };
      // grep exits 1 when nothing matched: that is a result, not a failure.
      const grepFailed = exitCode !== null && exitCode > 1;
      return {
        tool: 'Grep',
        input: { pattern: found.pattern, path: found.path },
        envelope: envelope(data, text, grepFailed, body),
      };
    }
    case 'LS': {
      const entries = outputLines(body)
        .filter((line) => !/^total \d+$/.test(line) && line.trim() !== '')
        .map((line) => line.trim().split(/\s+/).pop() ?? line);
      const data: LsData = { path: found.path, total: entries.length, entries, offset: 0, truncated: false };
      return { tool: 'LS', input: { path: found.path }, envelope: envelope(data, text, failed, body) };
    }
    case 'Glob': {
      const files = outputLines(body).filter((line) => line.trim() !== '');
      const data: GlobData = { pattern: found.pattern, path: found.path, total: files.length, files, truncated: false };
      return {
        tool: 'Glob',
        input: { pattern: found.pattern, path: found.path },
        envelope: envelope(data, text, failed, body),
      };
    }
    case 'Edit': {
      const data: EditData = { path: found.path, applied: !failed, replacements: failed ? 0 : 1, diff: diffOf(found) };
      // When the old/new strings cannot be recovered (scripts), the input carries the recorded command so the
      // model's reply keeps its recorded size.
      const input =
        found.oldString !== undefined || found.newString !== undefined
          ? { path: found.path, old_string: found.oldString ?? '', new_string: found.newString ?? '' }
          : { path: found.path, command: commandOf(call) };
      return { tool: 'Edit', input, envelope: envelope(data, text, failed, body) };
    }
    case 'Write': {
      const data: WriteData = {
        path: found.path,
        action: 'created',
        lines: found.content === '' ? 0 : found.content.split('\n').length,
        bytes: Buffer.byteLength(found.content),
        content: found.content,
      };
      return {
        tool: 'Write',
        input: { path: found.path, content: found.content },
        envelope: envelope(data, text, failed, body),
      };
    }
    case 'Bash': {
      const data: BashData = { command: found.command, exit_code: exitCode, stdout: body, stderr: '' };
      // A non-zero exit is a result the model reads (exit_code), as mca's Bash reports it.
      return { tool: 'Bash', input: { command: found.command }, envelope: envelope(data, text, false, body) };
    }
  }
}

/** Maps one recorded call (with its output) to the mca tool, input and envelope. */
export function mapCall(call: RecordedCall): MappedAction {
  const found = classifyCall(call);
  // A grep whose output is not `file:line:text` (e.g. -l, -c, or no -n) is replayed as Bash.
  if (found.kind === 'Grep') {
    const { body } = unwrapOutput(call.output ?? '', call.isError);
    const { matches, otherLines } = grepMatches(body);
    if (matches.length === 0 && otherLines > 0) return build({ kind: 'Bash', command: commandOf(call) }, call);
  }
  return build(found, call);
}

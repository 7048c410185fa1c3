/**
 * The verbose transcript's (Ctrl-O) lines for an Agent call: the subagent's steps, one line per tool call, read
 * from the transcript the call's result names. Only the Agent tool's results are read (under either of its
 * names), only a path of the shape mca writes (`….agents/<id>.jsonl`), and a finished run's lines are kept, so a
 * redraw never reads a file twice.
 */
import { readSubagentRun } from '../subagents/subagent-steps.js';
import { canonicalToolName } from '../tools/registry/tool-catalog.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import { summarizeCall } from './format-tool.js';

export interface StepLine {
  text: string;
  failed: boolean;
}

const MAX_LINES = 200;
const cache = new Map<string, StepLine[]>();

/** Lines for `result` of a call to `tool`; undefined when it is not a finished Agent call with a transcript. */
export function subagentStepLines(tool: string, result: ToolEnvelope, width: number): StepLine[] | undefined {
  if (canonicalToolName(tool) !== 'Agent') return undefined;
  const path = result.data.transcript;
  if (typeof path !== 'string' || !/\.agents[\\/][A-Za-z0-9_-]+\.jsonl$/.test(path)) return undefined;
  const key = `${path}\n${width}`;
  const known = cache.get(key);
  if (known) return known;
  const run = readSubagentRun(path);
  if (!run) return [{ text: `(the subagent's transcript ${path} cannot be read)`, failed: true }];
  const lines = run.steps.slice(0, MAX_LINES).map((step) => ({
    text: summarizeCall(step.tool, step.input, width),
    failed: step.failed,
  }));
  if (run.steps.length > MAX_LINES || run.cut) {
    lines.push({ text: `… more steps in ${path}`, failed: false });
  }
  if (lines.length === 0) lines.push({ text: '(the subagent called no tools)', failed: false });
  cache.set(key, lines);
  return lines;
}

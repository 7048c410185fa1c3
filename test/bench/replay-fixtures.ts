/** Hand-made replay material for the bench tests: small steps with known sizes and paths. */
import type { MappedAction } from '../../bench/replay/action-map.js';
import type { ReplayStep, ReplayTask, Strategy, StrategyEvent, StrategyOptions } from '../../bench/replay/strategy.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';

export const SYSTEM = 'You are an agent. '.repeat(30);

export function options(contextWindow: number, maxOutputTokens = 8_192): StrategyOptions {
  return { contextWindow, systemText: SYSTEM, maxOutputTokens };
}

/** A step that reads `path`; its recorded output is `chars` characters starting with the path. */
export function readStep(path: string, chars: number, thought = `look at ${path}`): ReplayStep {
  const text = `${path}\n`.padEnd(chars, 'x');
  const data = {
    path,
    start_line: 1,
    end_line: 1,
    total_lines: 1,
    content: `1\t${text}`,
    truncated: false,
    mtime_ms: 0,
  };
  const action: MappedAction = { tool: 'Read', input: { path }, envelope: successEnvelope(data, text) };
  const call = { tool: 'bash', input: { command: `cat ${path}` }, output: text };
  return { thought, action, recordedCall: `bash {"command":"cat ${path}"}`, call };
}

/** A shell step whose output is `chars` characters (no path in it). */
export function bashStep(command: string, chars: number): ReplayStep {
  const text = 'o'.repeat(chars);
  const data = { command, exit_code: 0, stdout: text, stderr: '' };
  const action: MappedAction = { tool: 'Bash', input: { command }, envelope: successEnvelope(data, text) };
  const call = { tool: 'bash', input: { command }, output: text };
  return { thought: `run ${command}`, action, recordedCall: `bash ${JSON.stringify({ command })}`, call };
}

export function finalStep(): ReplayStep {
  return { thought: 'done', answer: 'submit' };
}

/** One task of `steps` reads of files f<i>.py of `chars` characters each, then a final answer. */
export function readingTask(name: string, steps: number, chars: number): ReplayTask {
  const all = [...Array.from({ length: steps }, (_, index) => readStep(`${name}/f${index}.py`, chars)), finalStep()];
  return { name, task: `Task ${name}: fix the bug`, turns: [{ text: `Task ${name}: fix the bug`, steps: all }] };
}

/** The same strategy, reporting every event and every request text it produces. */
export function observed(
  strategy: Strategy,
  observers: { onEvents?: (events: StrategyEvent[]) => void; onRequest?: (text: string) => void },
): Strategy {
  return {
    name: strategy.name,
    startTurn: async (text) => {
      const events = await strategy.startTurn(text);
      observers.onEvents?.(events);
      return events;
    },
    nextCall: async () => {
      const next = await strategy.nextCall();
      observers.onEvents?.(next.events);
      observers.onRequest?.(next.call.segments.map((segment) => segment.text).join(''));
      return next;
    },
    record: (step, call) => strategy.record(step, call),
    endTurn: () => strategy.endTurn(),
  };
}

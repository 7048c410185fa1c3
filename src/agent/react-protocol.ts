/**
 * The ReAct text protocol (DESIGN.md "ReAct text protocol"): the model writes `Thought: …` and then
 * `Action: Tool[{json}]` or `Action: Finish[answer]`. Every quirk of real model output is handled here so the
 * loop only sees three outcomes: a tool call, a final answer, or an invalid action with a reason.
 */
import type { ToolAction } from '../context/message.js';

export const OBSERVATION_STOP = '\nObservation:';

export type ParsedReply =
  | { kind: 'action'; thought: string; action: ToolAction; text: string }
  | { kind: 'finish'; thought: string; answer: string; text: string }
  /** No `Action:` at all: the whole reply is the final answer. */
  | { kind: 'answer'; answer: string; text: string }
  | { kind: 'invalid'; thought: string; reason: string; text: string };

export const EXPECTED_FORM =
  'Expected exactly: "Thought: <reasoning>" then "Action: ToolName[{"param": "value"}]" with a JSON object, ' +
  'or "Action: Finish[<final answer>]".';

const TOOL_CALL_TAG = /<\/?tool_call>/g;
const ACTION_LINE = /(^|\n)[ \t>_#-]*\**Action\**\s*:\**\s*/g;
const TOOL_NAME = /^([A-Za-z_][A-Za-z0-9_]*)\s*/;

/** The text as it will be stored and shown: tags stripped, anything the model invented after its action cut. */
export function normalizeReply(raw: string): string {
  let text = raw.replace(TOOL_CALL_TAG, '');
  const observation = text.indexOf(OBSERVATION_STOP);
  if (observation >= 0) text = text.slice(0, observation);
  return text.trim();
}

function stripThoughtLabel(text: string): string {
  return text.replace(/^\s*\**Thought\**\s*:\**\s*/i, '').trim();
}

function lastActionStart(text: string): { labelStart: number; bodyStart: number } | undefined {
  let found: { labelStart: number; bodyStart: number } | undefined;
  for (const match of text.matchAll(ACTION_LINE)) {
    const leading = match[1] ?? '';
    found = { labelStart: match.index + leading.length, bodyStart: match.index + match[0].length };
  }
  return found;
}

function stripCodeFence(text: string): string {
  const fenced = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?```$/.exec(text.trim());
  return fenced?.[1] !== undefined ? fenced[1].trim() : text.trim();
}

/** The argument text between the opening bracket after the tool name and its matching close at the end. */
function extractArgument(body: string): { argument: string } | { error: string } {
  const trimmed = body.trim();
  const open = trimmed[0];
  if (open === '[' || open === '(') {
    const close = open === '[' ? ']' : ')';
    const end = trimmed.lastIndexOf(close);
    if (end <= 0) return { error: `the action's "${open}" is never closed with "${close}"` };
    return { argument: trimmed.slice(1, end).trim() };
  }
  if (open === '{' || open === '`') return { argument: trimmed };
  if (trimmed === '') return { error: 'the action has no argument' };
  return { error: `expected "[" after the tool name, found "${trimmed.slice(0, 20)}"` };
}

/** Parses JSON leniently enough for real models: code fences and trailing prose after the object are tolerated. */
export function parseJsonObject(argument: string): { value: Record<string, unknown> } | { error: string } {
  const text = stripCodeFence(argument);
  if (text === '') return { value: {} };
  const attempt = (candidate: string): unknown => {
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      return undefined;
    }
  };
  let value = attempt(text);
  if (value === undefined && text.startsWith('{')) {
    const lastBrace = text.lastIndexOf('}');
    if (lastBrace > 0) value = attempt(text.slice(0, lastBrace + 1));
  }
  if (value === undefined) {
    try {
      JSON.parse(text);
    } catch (error) {
      return { error: `the action input is not valid JSON (${(error as Error).message})` };
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: 'the action input must be a JSON object like {"path": "src/a.ts"}' };
  }
  return { value: value as Record<string, unknown> };
}

export function parseReply(raw: string): ParsedReply {
  const text = normalizeReply(raw);
  const start = lastActionStart(text);
  if (!start) return { kind: 'answer', answer: stripThoughtLabel(text), text };

  const thought = stripThoughtLabel(text.slice(0, start.labelStart));
  const body = text.slice(start.bodyStart);
  const name = TOOL_NAME.exec(body);
  if (!name?.[1]) {
    return { kind: 'invalid', thought, reason: `no tool name after "Action:"`, text };
  }
  const tool = name[1];
  const argument = extractArgument(body.slice(name[0].length));
  if ('error' in argument) return { kind: 'invalid', thought, reason: argument.error, text };

  if (tool.toLowerCase() === 'finish') {
    return { kind: 'finish', thought, answer: argument.argument, text };
  }
  const input = parseJsonObject(argument.argument);
  if ('error' in input) return { kind: 'invalid', thought, reason: input.error, text };
  return { kind: 'action', thought, action: { tool, input: input.value }, text };
}

export function formatAction(action: ToolAction): string {
  return `Action: ${action.tool}[${JSON.stringify(action.input)}]`;
}

/** A stable key for "the same action again" detection. */
export function actionKey(action: ToolAction): string {
  return `${action.tool}:${JSON.stringify(action.input)}`;
}

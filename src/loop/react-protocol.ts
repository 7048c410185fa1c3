/**
 * The ReAct text protocol (DESIGN.md "Tool protocol"): the model writes `Thought: …` and then
 * `Action: Tool[{json}]` or `Action: Finish[answer]`. The rules:
 *  - The FIRST line that starts with an action label (`Action:`, `**Action:**`, `Action :`) and names a tool
 *    followed by a bracket decides. A label followed by prose ("Action: rename it") is prose, not an action.
 *  - `Finish[`: everything up to the reply's last `]` is the answer, verbatim; nothing inside it is parsed or run.
 *  - A tool's JSON object is found by a string-aware bracket scan; text after the action is ignored; broken JSON
 *    is repaired before it is refused (action-json.ts); the repairer loads only for such a reply.
 *  - No action line: a reply with a `Thought:` label narrates a next step (the loop nudges once); a reply with no
 *    protocol markers is the answer.
 */
import type { ToolAction } from '../context/message.js';
import { balancedEnd, parseActionJson, type JsonRepair } from './action-json.js';

export const OBSERVATION_STOP = '\nObservation:';

export type ParsedReply =
  | {
      kind: 'action';
      thought: string;
      action: ToolAction;
      /** The reply up to the end of the action (what is stored and shown). */
      text: string;
      /** The JSON object and the closing bracket were found as written: nothing was guessed or repaired. */
      exact: boolean;
    }
  | {
      kind: 'finish';
      thought: string;
      answer: string;
      text: string;
      /** False when `Finish[` never found its closing `]` (the answer runs to the end of the reply). */
      closed: boolean;
    }
  /**
   * No action line: the whole reply is the final answer. `narration` marks a reply that carries a `Thought:`
   * label (a model describing its next step); the loop asks once for the action before accepting it.
   */
  | { kind: 'answer'; answer: string; text: string; narration: boolean }
  | {
      kind: 'invalid';
      thought: string;
      reason: string;
      text: string;
      /** The action's JSON is broken and no repair was tried (parseReplyRepairing tries it). */
      repairable?: true;
    };

export const EXPECTED_FORM =
  'Expected exactly: "Thought: <reasoning>" then "Action: ToolName[{"param": "value"}]" with a JSON object, ' +
  'or "Action: Finish[<final answer>]".';

/** An action label at the start of a line; the optional tag is what some models wrap around tool calls. */
const ACTION_LABEL = /^[ \t]*(?:<tool_call>)?[ \t]*(?:\*\*|__)?Action(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*/gm;
const THOUGHT_LABEL = /^[ \t]*(?:\*\*|__)?Thought(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*/m;
const TOOL_NAME = /^([A-Za-z_][A-Za-z0-9_]*)/;
const FENCE_OPEN = /^```[A-Za-z]*[ \t]*\n?/;
const CLOSERS: Readonly<Record<string, string>> = { '[': ']', '(': ')' };

/** The reply as the model meant it: anything it invented after a stop sequence it should have stopped at. */
export function normalizeReply(raw: string): string {
  const observation = raw.indexOf(OBSERVATION_STOP);
  return observation >= 0 ? raw.slice(0, observation) : raw;
}

function stripThoughtLabel(text: string): string {
  return text
    .replace(/<\/?tool_call>/g, '')
    .replace(THOUGHT_LABEL, '')
    .trim();
}

interface ActionLine {
  /** Where the label starts (the thought is everything before). */
  labelStart: number;
  tool: string;
  /** Index right after the tool name. */
  afterName: number;
}

/** The first label line that names a tool and then a bracket (or ends the line); undefined when there is none. */
function firstActionLine(text: string): ActionLine | { labelStart: number; noName: true } | undefined {
  for (const match of text.matchAll(ACTION_LABEL)) {
    const bodyStart = match.index + match[0].length;
    const body = text.slice(bodyStart);
    const name = TOOL_NAME.exec(body);
    if (!name?.[1]) {
      if (/^[[({]/.test(body)) return { labelStart: match.index, noName: true };
      continue;
    }
    const afterName = bodyStart + name[1].length;
    const rest = text.slice(afterName);
    const restOfLine = rest.split('\n', 1)[0]?.trim() ?? '';
    // `Finish: answer` is a common slip; for tools only a bracket (or nothing yet) makes the line an action.
    const opener = name[1].toLowerCase() === 'finish' ? /^[[({`:]/ : /^[[({`]/;
    if (restOfLine === '' || opener.test(restOfLine)) return { labelStart: match.index, tool: name[1], afterName };
  }
  return undefined;
}

function parseFinish(text: string, line: ActionLine, thought: string): ParsedReply {
  const rest = text.slice(line.afterName);
  const openOffset = rest.search(/\S/);
  const open = openOffset >= 0 ? rest[openOffset] : undefined;
  const close = open === undefined ? undefined : CLOSERS[open];
  if (open === undefined || close === undefined) {
    const answer = rest.replace(/^\s*:/, '').trim();
    return { kind: 'finish', thought, answer, text: text.trimEnd(), closed: false };
  }
  const answerStart = line.afterName + openOffset + 1;
  const end = text.lastIndexOf(close);
  if (end < answerStart) {
    return { kind: 'finish', thought, answer: text.slice(answerStart), text: text.trimEnd(), closed: false };
  }
  return { kind: 'finish', thought, answer: text.slice(answerStart, end), text: text.slice(0, end + 1), closed: true };
}

function parseToolAction(text: string, line: ActionLine, thought: string, repair: JsonRepair | undefined): ParsedReply {
  const invalid = (reason: string, repairable?: true): ParsedReply => ({
    kind: 'invalid',
    thought,
    reason,
    text: text.trim(),
    ...(repairable ? { repairable } : {}),
  });
  let cursor = line.afterName;
  while (cursor < text.length && /\s/.test(text[cursor] ?? '')) cursor += 1;
  const open = text[cursor];
  if (open === undefined) return invalid('the action has no argument');
  const close = CLOSERS[open];
  let inside = close === undefined ? cursor : cursor + 1;
  if (close === undefined && open !== '{' && open !== '`') {
    return invalid(`expected "[" after the tool name, found "${text.slice(cursor, cursor + 20)}"`);
  }
  while (inside < text.length && /\s/.test(text[inside] ?? '')) inside += 1;
  const fence = FENCE_OPEN.exec(text.slice(inside));
  if (fence) inside += fence[0].length;
  while (inside < text.length && /\s/.test(text[inside] ?? '')) inside += 1;

  if (close !== undefined && text[inside] === close) {
    return finishAction(text, line, thought, {}, inside, true);
  }
  const objectEnd = text[inside] === '{' ? balancedEnd(text, inside) : undefined;
  const lastClose = close === undefined ? -1 : text.lastIndexOf(close);
  // Nothing closes: the reply was cut off or never finished. Repairing it would invent the missing end.
  if (objectEnd === undefined && (close === undefined || lastClose <= inside)) {
    return invalid(`the action's "${open}" is never closed with "${close ?? '}'}"`);
  }
  const candidates: string[] = [];
  if (objectEnd !== undefined) candidates.push(text.slice(inside, objectEnd + 1));
  candidates.push(stripFenceEnd(lastClose > inside ? text.slice(inside, lastClose) : text.slice(inside)));
  const parsed = parseActionJson(candidates, repair);
  if ('error' in parsed) return invalid(parsed.error, parsed.repairable);
  const closeAfterObject = objectEnd === undefined ? -1 : closingBracketAfter(text, objectEnd + 1, close);
  const exact = !parsed.repaired && objectEnd !== undefined && (close === undefined || closeAfterObject >= 0);
  const end = closeAfterObject >= 0 ? closeAfterObject : objectEnd !== undefined ? objectEnd : lastClose;
  return finishAction(text, line, thought, parsed.value, Math.max(end, inside), exact);
}

function stripFenceEnd(text: string): string {
  return text.replace(/\n?```\s*$/, '');
}

/** The closing bracket right after the object (whitespace or a closing fence in between), or -1. */
function closingBracketAfter(text: string, from: number, close: string | undefined): number {
  if (close === undefined) return from - 1;
  const match = /^\s*(?:```\s*)?/.exec(text.slice(from));
  const at = from + (match?.[0].length ?? 0);
  return text[at] === close ? at : -1;
}

function finishAction(
  text: string,
  line: ActionLine,
  thought: string,
  input: Record<string, unknown>,
  end: number,
  exact: boolean,
): ParsedReply {
  const stored = text
    .slice(0, end + 1)
    .replace(/<tool_call>/g, '')
    .trim();
  return { kind: 'action', thought, action: { tool: line.tool, input }, text: stored, exact };
}

/** Parses one reply; broken action JSON is repaired only when `repair` is given (else `invalid`, `repairable`). */
export function parseReply(raw: string, repair?: JsonRepair): ParsedReply {
  const text = normalizeReply(raw);
  const line = firstActionLine(text);
  if (line === undefined) {
    const narration = THOUGHT_LABEL.test(text);
    return { kind: 'answer', answer: narration ? stripThoughtLabel(text) : text.trim(), text: text.trim(), narration };
  }
  const thought = stripThoughtLabel(text.slice(0, line.labelStart));
  if ('noName' in line) return { kind: 'invalid', thought, reason: 'no tool name after "Action:"', text: text.trim() };
  if (line.tool.toLowerCase() === 'finish') return parseFinish(text, line, thought);
  return parseToolAction(text, line, thought, repair);
}

/** parseReply with broken action JSON repaired: jsonrepair loads only when a reply needs it. */
export async function parseReplyRepairing(raw: string): Promise<ParsedReply> {
  const parsed = parseReply(raw);
  if (parsed.kind !== 'invalid' || parsed.repairable !== true) return parsed;
  const { jsonrepair } = await import('jsonrepair');
  return parseReply(raw, jsonrepair);
}

export function formatAction(action: ToolAction): string {
  return `Action: ${action.tool}[${JSON.stringify(action.input)}]`;
}

/** A stable key for "the same action again" detection. */
export function actionKey(action: ToolAction): string {
  return `${action.tool}:${JSON.stringify(action.input)}`;
}

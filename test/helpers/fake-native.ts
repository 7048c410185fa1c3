/**
 * How the loopback fakes speak native tool use. A request that carries `tools` gets its scripted reply as native
 * blocks: explicit `calls` as tool_use blocks (Anthropic: input streamed as `input_json_delta` pieces; OpenAI:
 * `tool_calls` deltas), or a text-protocol script translated (`Action: Tool[{…}]` → one call with the thought as
 * text, `Action: Finish[answer]` → the answer as text), so every scenario runs in both protocols.
 */
import { jsonrepair } from 'jsonrepair';
import { parseReply } from '../../src/loop/react-protocol.js';

export interface FakeToolUse {
  /** Default: a fresh `toolu_fake_<n>` id. */
  id?: string;
  name: string;
  input: unknown;
}

export interface NativePlan {
  text: string;
  calls: Array<{ id: string; name: string; input: unknown }>;
}

let callCounter = 0;

export function nativePlan(text: string, calls: readonly FakeToolUse[] | undefined): NativePlan {
  const withIds = (list: readonly FakeToolUse[]): NativePlan['calls'] =>
    list.map((call) => ({ id: call.id ?? `toolu_fake_${++callCounter}`, name: call.name, input: call.input }));
  if (calls !== undefined) return { text, calls: withIds(calls) };
  const parsed = parseReply(text, jsonrepair);
  if (parsed.kind === 'action') {
    return { text: parsed.thought, calls: withIds([{ name: parsed.action.tool, input: parsed.action.input }]) };
  }
  if (parsed.kind === 'finish') return { text: parsed.answer, calls: [] };
  return { text, calls: [] };
}

/** A JSON text cut into `pieces` parts, as the APIs stream a call's input. */
export function jsonPieces(input: unknown, pieces = 3): string[] {
  const json = JSON.stringify(input);
  const size = Math.max(1, Math.ceil(json.length / pieces));
  const parts: string[] = [];
  for (let at = 0; at < json.length; at += size) parts.push(json.slice(at, at + size));
  return parts.length > 0 ? parts : [''];
}

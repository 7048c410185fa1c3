/**
 * Streamed OpenAI `tool_calls` deltas: each call (several in parallel) is keyed by `index`; its first delta
 * carries the id and name, the following ones pieces of the `arguments` JSON. Whole calls come out in index order
 * once the stream ends.
 */
import { parseToolInput } from './content-blocks.js';
import type { ToolCallDelta } from './openai-chunk.js';
import type { ToolCall } from './types.js';

interface OpenCall {
  id: string;
  name: string;
  arguments: string;
}

export class ToolCallAssembler {
  private readonly calls = new Map<number, OpenCall>();

  add(deltas: readonly ToolCallDelta[]): void {
    for (const delta of deltas) {
      const call = this.calls.get(delta.index) ?? { id: '', name: '', arguments: '' };
      if (delta.id !== undefined) call.id = delta.id;
      if (delta.name !== undefined) call.name += delta.name;
      call.arguments += delta.arguments;
      this.calls.set(delta.index, call);
    }
  }

  /** The whole calls in index order; a call the server sent without an id gets one, so results still pair. */
  finish(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        id: call.id === '' ? `call_${index}` : call.id,
        name: call.name,
        input: parseToolInput(call.arguments),
      }));
  }
}

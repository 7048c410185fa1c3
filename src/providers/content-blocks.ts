/**
 * Assembles the non-text content blocks of an Anthropic stream: a `tool_use` block's input arrives as
 * `input_json_delta` pieces and is whole only at `content_block_stop`; a `thinking` block streams its text and
 * ends with a signature that must be passed back unchanged within the turn.
 */
import type { StreamEvent } from './types.js';

interface OpenToolUse {
  kind: 'tool_use';
  id: string;
  name: string;
  json: string;
}

interface OpenThinking {
  kind: 'thinking';
  thinking: string;
  signature: string;
}

/** The shapes read from the SDK's events, kept structural so a new block type is ignored rather than fatal. */
interface BlockStart {
  type: string;
  id?: string;
  name?: string;
}

interface BlockDelta {
  type: string;
  partial_json?: string;
  thinking?: string;
  signature?: string;
}

/**
 * A tool_use input as sent: the parsed object, or the raw text when it is not JSON (a reply cut at the output
 * limit); the registry refuses anything but an object with INVALID_PARAM.
 */
export function parseToolInput(json: string): unknown {
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

export class ContentBlockAssembler {
  private readonly open = new Map<number, OpenToolUse | OpenThinking>();

  start(index: number, block: BlockStart): void {
    if (block.type === 'tool_use') {
      this.open.set(index, { kind: 'tool_use', id: block.id ?? `call_${index}`, name: block.name ?? '', json: '' });
    } else if (block.type === 'thinking') {
      this.open.set(index, { kind: 'thinking', thinking: '', signature: '' });
    }
  }

  /** Returns the event to show live (thinking text), if any. */
  delta(index: number, delta: BlockDelta): StreamEvent | undefined {
    const block = this.open.get(index);
    if (block?.kind === 'tool_use' && delta.type === 'input_json_delta') block.json += delta.partial_json ?? '';
    if (block?.kind === 'thinking' && delta.type === 'thinking_delta' && delta.thinking) {
      block.thinking += delta.thinking;
      return { type: 'thinking', text: delta.thinking };
    }
    if (block?.kind === 'thinking' && delta.type === 'signature_delta') block.signature += delta.signature ?? '';
    return undefined;
  }

  /** Returns the whole call or thinking block once its block ends. */
  stop(index: number): StreamEvent | undefined {
    const block = this.open.get(index);
    this.open.delete(index);
    if (block?.kind === 'tool_use') {
      return { type: 'tool_call', call: { id: block.id, name: block.name, input: parseToolInput(block.json) } };
    }
    if (block?.kind === 'thinking') {
      return { type: 'thinking_block', block: { thinking: block.thinking, signature: block.signature } };
    }
    return undefined;
  }
}

/**
 * `--include-partial-messages`: the Anthropic streaming events of each model reply (`stream_event` lines), rebuilt
 * from the AgentEvent stream: `message_start` when a step starts, a text or thinking content block per run of
 * deltas, and `message_delta` + `message_stop` when the step is over (stop reason `tool_use` when it called a tool).
 * Tool-use blocks are not streamed piecewise: the `assistant` line carries each one whole.
 */
import type { CcApiMessage, CcStreamEvent } from './types.js';

type BlockKind = 'text' | 'thinking';

export class PartialStream {
  private open: BlockKind | null = null;
  private index = -1;
  private started = false;
  private outputTokens = 0;

  /** A step starts: the message it streams into. */
  start(message: CcApiMessage): CcStreamEvent[] {
    this.open = null;
    this.index = -1;
    this.started = true;
    this.outputTokens = 0;
    return [{ type: 'message_start', message }];
  }

  delta(kind: BlockKind, text: string): CcStreamEvent[] {
    if (!this.started) return [];
    const out: CcStreamEvent[] = [];
    if (this.open !== kind) {
      out.push(...this.closeBlock());
      this.index += 1;
      this.open = kind;
      out.push({
        type: 'content_block_start',
        index: this.index,
        content_block:
          kind === 'text'
            ? { type: 'text', text: '', citations: null }
            : { type: 'thinking', thinking: '', signature: '' },
      });
    }
    out.push({
      type: 'content_block_delta',
      index: this.index,
      delta:
        kind === 'text'
          ? { type: 'text_delta', text }
          : { type: 'thinking_delta', thinking: text, estimated_tokens: null },
    });
    return out;
  }

  /** The reply is complete (its usage arrived): the open block closes. */
  replyDone(outputTokens: number): CcStreamEvent[] {
    this.outputTokens = outputTokens;
    return this.closeBlock();
  }

  /** The step is over: `calledTools` tells the stop reason. */
  end(calledTools: boolean): CcStreamEvent[] {
    if (!this.started) return [];
    this.started = false;
    return [
      ...this.closeBlock(),
      {
        type: 'message_delta',
        delta: {
          stop_reason: calledTools ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          stop_details: null,
          container: null,
        },
        usage: {
          output_tokens: this.outputTokens,
          input_tokens: 0,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          server_tool_use: null,
          iterations: null,
          output_tokens_details: null,
          fallback_credit: null,
        },
        context_management: null,
      },
      { type: 'message_stop' },
    ];
  }

  private closeBlock(): CcStreamEvent[] {
    if (this.open === null) return [];
    this.open = null;
    return [{ type: 'content_block_stop', index: this.index }];
  }
}

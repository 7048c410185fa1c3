/**
 * `--output-format json` and `stream-json` in Claude Code's shapes (DESIGN.md "Claude Code compatibility").
 * `json`: one `result` object when the run is over. `stream-json`: the `system`/`init` line, then every message as
 * it happens (`assistant`, `user`, `stream_event` with partial messages, mca-only `system` lines), then `result`.
 * The same translator serves the headless front (src/headless), which writes one `result` per user message.
 */
import type { AgentEvent } from '../loop/events.js';
import type { InitInfo } from '../claude-code/init.js';
import { initMessage } from '../claude-code/init.js';
import { ClaudeCodeTranslator } from '../claude-code/messages.js';
import type { CcMessage } from '../claude-code/types.js';
import type { ModelPrice } from '../providers/model-prices.js';
import { ModelUsageLedger, type ModelLimits } from '../claude-code/usage.js';
import type { PrintResult, PrintSink, SinkOutput } from './sink.js';
import { SubagentLines, type SubagentSubscription } from '../claude-code/subagents.js';
import { stderrLineFor } from './text-sink.js';
import { emitsSessionState, sessionStateLine } from '../claude-code/system.js';
import { forwardTaskLines } from '../claude-code/tasks.js';

/** What the Claude Code formats need to know about the session beyond its events. */
export interface ClaudeCodeSessionInfo {
  sessionId: () => string;
  model: () => string;
  /** The init line's facts, read when the first line is written. */
  init: () => InitInfo;
  /** mca's tool input in Claude Code's names. */
  toClaudeCodeInput: (tool: string, input: unknown) => unknown;
  limits: (model: string) => ModelLimits;
  /** Price overrides from config (`modelPrices`), as the REPL's `/cost` uses them. */
  prices?: Readonly<Record<string, ModelPrice>>;
  includePartialMessages: boolean;
  /** The runtime's subagent events (their lines carry `parent_tool_use_id`); absent: none are shown. */
  subagents?: SubagentSubscription;
}

/** Writes each subagent line through `write` while subscribed; returns the unsubscribe function. */
export function forwardSubagentLines(info: ClaudeCodeSessionInfo, write: (line: CcMessage) => void): () => void {
  if (!info.subagents) return () => undefined;
  const lines = new SubagentLines(info);
  return info.subagents((event) => {
    for (const line of lines.event(event)) write(line);
  });
}

export function ccLine(message: CcMessage): string {
  return `${JSON.stringify(message)}\n`;
}

export function claudeCodeTranslator(info: ClaudeCodeSessionInfo): ClaudeCodeTranslator {
  return new ClaudeCodeTranslator({
    sessionId: info.sessionId,
    model: info.model,
    toClaudeCodeInput: info.toClaudeCodeInput,
    ledger: new ModelUsageLedger(info.limits, info.prices),
    includePartialMessages: info.includePartialMessages,
  });
}

export function claudeCodeSink(format: 'json' | 'stream-json', output: SinkOutput, info: ClaudeCodeSessionInfo) {
  const translator = claudeCodeTranslator(info);
  const streaming = format === 'stream-json';
  // With CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS, `running` before init and `idle` after the result, as Claude Code.
  const states = streaming && emitsSessionState();
  let started = false;
  const start = (): void => {
    if (started || !streaming) return;
    started = true;
    if (states) output.stdout(ccLine(sessionStateLine('running', info.sessionId())));
    output.stdout(ccLine(initMessage(info.init())));
  };
  const unsubscribeSubagents = streaming
    ? forwardSubagentLines(info, (line) => output.stdout(ccLine(line)))
    : () => undefined;
  const unsubscribeTasks = streaming
    ? forwardTaskLines(info.sessionId, (line) => {
        start();
        output.stdout(ccLine(line));
      })
    : () => undefined;
  const unsubscribe = (): void => {
    unsubscribeSubagents();
    unsubscribeTasks();
  };
  const sink: PrintSink = {
    event(event: AgentEvent) {
      start();
      const lines = translator.event(event);
      if (streaming) {
        for (const line of lines) output.stdout(ccLine(line));
        // The session changed model: the person watching stderr learns it too (the host has the system line).
        if (event.type === 'model_fallback') output.stderr(stderrLineFor(event) ?? '');
      } else {
        // `json` keeps stdout to the one result object; warnings (a server that failed, a setting mca ignores) and
        // retries still reach the person on stderr, as in the text format: nothing is dropped silently.
        const line = stderrLineFor(event);
        if (line) output.stderr(line);
      }
    },
    finish({ end }: PrintResult) {
      unsubscribe();
      start();
      output.stdout(ccLine(translator.result(end)));
      if (states) output.stdout(ccLine(sessionStateLine('idle', info.sessionId())));
    },
  };
  return sink;
}

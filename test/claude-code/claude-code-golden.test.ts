/**
 * The Claude Code wire shapes mca writes, pinned against the Agent SDK's own TypeScript types (the current line
 * and the 0.2.x line that editor adapters pin): every message type of src/claude-code/types.ts is assigned
 * to the SDK's, so a field that drifts (renamed, retyped, newly required) fails `npm run typecheck`. The runtime
 * part checks that a translated turn's lines are exactly those types.
 */
import type * as Sdk from '@anthropic-ai/claude-agent-sdk';
import type * as Sdk02 from 'claude-agent-sdk-02';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/events.js';
import { ClaudeCodeTranslator } from '../../src/claude-code/messages.js';
import { ModelUsageLedger } from '../../src/claude-code/usage.js';
import type { CcMcpServerStatus } from '../../src/claude-code/mcp.js';
import type { RewindFilesAnswer } from '../../src/headless/rewind-files.js';
import { callbackRunResult } from '../../src/hooks/hook-callbacks.js';
import type { HookCommand } from '../../src/hooks/hook-config.js';
import { interpretRun } from '../../src/hooks/hook-output.js';
import type {
  CcAgentInfo,
  CcSlashCommand,
  CcAssistantMessage,
  CcInitMessage,
  CcMessage,
  CcSystemLine,
  CcPartialMessage,
  CcResultError,
  CcResultMessage,
  CcResultSuccess,
  CcUserMessage,
} from '../../src/claude-code/types.js';

/** Compile-time only: each of mca's shapes is assignable to the SDK's. */
export function pinnedShapes(
  init: CcInitMessage,
  assistant: CcAssistantMessage,
  user: CcUserMessage,
  partial: CcPartialMessage,
  success: CcResultSuccess,
  failure: CcResultError,
  result: CcResultMessage,
): void {
  const current: Sdk.SDKMessage[] = [init, assistant, user, partial, success, failure, result];
  // 0.2.x declared only the legacy `apiKeySource` values; the current line adds the one Claude Code now sends.
  const oldInit: Omit<Sdk02.SDKSystemMessage, 'apiKeySource'> = init;
  const old: Sdk02.SDKMessage[] = [assistant, user, partial, success, failure, result];
  const exact: [Sdk.SDKSystemMessage, Sdk.SDKAssistantMessage, Sdk.SDKUserMessage, Sdk.SDKResultMessage] = [
    init,
    assistant,
    user,
    result,
  ];
  void current;
  void old;
  void oldInit;
  void exact;
}

/** Compile-time only: Claude Code's system lines mca writes (claude-code-system.ts) are the SDK's (current line). */
export function pinnedSystemLines(line: CcSystemLine): void {
  const typed: Sdk.SDKMessage = line;
  if (line.subtype === 'session_state_changed') {
    const state: Sdk.SDKSessionStateChangedMessage = line;
    void state;
  } else if (line.subtype === 'api_retry') {
    const retry: Sdk.SDKAPIRetryMessage = line;
    void retry;
  } else if (line.subtype === 'status') {
    const status: Sdk.SDKStatusMessage = line;
    void status;
  } else if (line.subtype === 'hook_response') {
    const hook: Sdk.SDKHookResponseMessage = line;
    void hook;
  }
  void typed;
}

/** Compile-time only: the control answers mca gives the host are the SDK's types (current line). */
export function pinnedControlAnswers(
  status: CcMcpServerStatus,
  rewind: RewindFilesAnswer,
  agent: CcAgentInfo,
  command: CcSlashCommand,
): void {
  const typed: [Sdk.McpServerStatus, Sdk.RewindFilesResult, Sdk.AgentInfo, Sdk.SlashCommand] = [
    status,
    rewind,
    agent,
    command,
  ];
  void typed;
}

const CALLBACK: HookCommand = {
  event: 'PreToolUse',
  matcher: 'Bash',
  command: 'SDK hook callback hook_0',
  timeoutSec: 60,
  source: 'the SDK host (initialize)',
  scope: 'user',
  key: 'hooks.PreToolUse[0].hookCallbackIds[0]',
  callbackId: 'hook_0',
};

/** An SDK hook callback's answer (typed by the SDK) as mca's hook engine reads it. */
function readCallbackAnswer(output: Sdk.SyncHookJSONOutput) {
  return interpretRun('PreToolUse', CALLBACK, callbackRunResult({ kind: 'answer', output }, 1));
}

describe('Claude Code shapes', () => {
  it("an SDK hook callback's typed answers mean what they mean to Claude Code", () => {
    expect(
      readCallbackAnswer({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
      }),
    ).toMatchObject({ kind: 'blocked', decision: 'deny', reason: 'no' });
    expect(
      readCallbackAnswer({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { command: 'ls' },
        },
      }),
    ).toMatchObject({ kind: 'success', decision: 'allow', updatedInput: { command: 'ls' } });
    expect(
      readCallbackAnswer({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ticket 42' } }),
    ).toMatchObject({ kind: 'success', context: 'ticket 42' });
    expect(readCallbackAnswer({ continue: false, stopReason: 'enough' })).toMatchObject({ stop: 'enough' });
    expect(readCallbackAnswer({ decision: 'block', reason: 'old style' })).toMatchObject({ decision: 'deny' });
    // An error answer is a failed hook: a notice, no decision.
    const failed = interpretRun('PreToolUse', CALLBACK, callbackRunResult({ kind: 'error', message: 'boom' }, 1));
    expect(failed).toMatchObject({ kind: 'failed' });
    expect(failed.decision).toBeUndefined();
    expect(failed.notices.join('\n')).toContain('boom');
  });

  it("a subagent's lines are the SDK's message types with parent_tool_use_id set", () => {
    const translator = new ClaudeCodeTranslator({
      sessionId: () => 'session-1',
      model: () => 'claude-test',
      toClaudeCodeInput: (_tool, input) => input,
      ledger: new ModelUsageLedger(() => ({ contextWindow: 200_000, maxOutputTokens: 32_000 })),
      parentToolUseId: 'toolu_agent',
    });
    const events: AgentEvent[] = [
      { type: 'tool_start', step: 1, id: 'toolu_sub', tool: 'Read', input: { path: 'a.ts' } },
    ];
    const lines = events.flatMap((event) => translator.event(event));
    const typed: Sdk.SDKMessage[] = lines as Array<CcAssistantMessage | CcUserMessage>;
    expect(typed).toEqual([
      expect.objectContaining({ type: 'assistant', parent_tool_use_id: 'toolu_agent', session_id: 'session-1' }),
    ]);
  });

  it('compile against the SDK types', () => {
    const shape: CcMessage['type'][] = ['system', 'assistant', 'user', 'stream_event', 'result'];
    expect(shape).toHaveLength(5);
  });
});

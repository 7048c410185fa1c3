/**
 * The Claude Code wire shapes mca writes, pinned against the Agent SDK's own TypeScript types (the current line
 * and the 0.2.x line that editor adapters pin): every message type of src/print/claude-code-types.ts is assigned
 * to the SDK's, so a field that drifts (renamed, retyped, newly required) fails `npm run typecheck`. The runtime
 * part checks that a translated turn's lines are exactly those types.
 */
import type * as Sdk from '@anthropic-ai/claude-agent-sdk';
import type * as Sdk02 from 'claude-agent-sdk-02';
import { describe, expect, it } from 'vitest';
import type {
  CcAssistantMessage,
  CcInitMessage,
  CcMessage,
  CcPartialMessage,
  CcResultError,
  CcResultMessage,
  CcResultSuccess,
  CcUserMessage,
} from '../../src/print/claude-code-types.js';

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

describe('Claude Code shapes', () => {
  it('compile against the SDK types', () => {
    const shape: CcMessage['type'][] = ['system', 'assistant', 'user', 'stream_event', 'result'];
    expect(shape).toHaveLength(5);
  });
});

/**
 * The lines Claude Code prints with `--output-format stream-json` / `json` (and writes to an Agent SDK host), as
 * mca produces them. These are mca's own declarations of the wire shapes; test/claude-code/claude-code-golden.test.ts
 * assigns each of them to the Agent SDK's `SDKMessage` types (current and 0.2.x), so a drift fails `tsc`.
 */

/** Anthropic's usage object with every counter present (the SDK's `NonNullableUsage`). */
export interface CcUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_1h_input_tokens: number; ephemeral_5m_input_tokens: number };
  server_tool_use: { web_search_requests: number; web_fetch_requests: number };
  service_tier: 'standard';
  speed: 'standard';
  inference_geo: string;
  iterations: never[];
  output_tokens_details: { thinking_tokens: number };
  fallback_credit: null;
}

/** One model's totals in `modelUsage` (camelCase, as Claude Code writes it). */
export interface CcModelUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  webSearchRequests: number;
  /** 0 when the model is not in the price table (mca never guesses a price). */
  costUSD: number;
  contextWindow: number;
  maxOutputTokens: number;
}

export interface CcTextBlock {
  type: 'text';
  text: string;
  citations: null;
}

export interface CcThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface CcToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export type CcAssistantBlock = CcTextBlock | CcThinkingBlock | CcToolUseBlock;

/** An Anthropic Messages API message; streamed, `content` holds the one block this line delivers. */
export interface CcApiMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: CcAssistantBlock[];
  stop_reason: 'end_turn' | 'tool_use' | 'max_tokens' | null;
  stop_sequence: null;
  stop_details: null;
  container: null;
  context_management: null;
  diagnostics: null;
  usage: CcUsage;
}

export type UUID = `${string}-${string}-${string}-${string}-${string}`;

interface CcEnvelope {
  uuid: UUID;
  session_id: string;
}

export interface CcAssistantMessage extends CcEnvelope {
  type: 'assistant';
  message: CcApiMessage;
  parent_tool_use_id: string | null;
}

export interface CcToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

export interface CcUserMessage extends CcEnvelope {
  type: 'user';
  message: { role: 'user'; content: CcToolResultBlock[] };
  parent_tool_use_id: string | null;
}

export interface CcInitMessage extends CcEnvelope {
  type: 'system';
  subtype: 'init';
  cwd: string;
  tools: string[];
  mcp_servers: Array<{ name: string; status: string; source?: string }>;
  model: string;
  permissionMode: 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan';
  slash_commands: string[];
  apiKeySource: 'ANTHROPIC_API_KEY' | 'none';
  claude_code_version: string;
  output_style: string;
  agents: string[];
  skills: string[];
  plugins: Array<{ name: string; path: string; source?: string; version?: string }>;
}

/** An mca-only event (compaction, degrade step, retry, warning): parsers of Claude Code's lines skip the subtype. */
export interface CcMcaSystemMessage extends CcEnvelope {
  type: 'system';
  subtype: `mca_${string}`;
  [field: string]: unknown;
}

export interface CcPermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

interface CcResultBase extends CcEnvelope {
  type: 'result';
  duration_ms: number;
  duration_api_ms: number;
  is_error: boolean;
  num_turns: number;
  stop_reason: string | null;
  total_cost_usd: number;
  usage: CcUsage;
  modelUsage: Record<string, CcModelUsage>;
  permission_denials: CcPermissionDenial[];
}

export interface CcResultSuccess extends CcResultBase {
  subtype: 'success';
  result: string;
  /** `--json-schema`: the StructuredOutput call's input. */
  structured_output?: unknown;
}

export interface CcResultError extends CcResultBase {
  subtype:
    'error_during_execution' | 'error_max_turns' | 'error_max_budget_usd' | 'error_max_structured_output_retries';
  errors: string[];
  /** mca only: why mca stopped the turn itself (repeated_calls, stalled, terminated, max_budget_usd, …). */
  mca_stop?: string;
  /** mca only: an answer that arrived but could not be saved (the session file's disk was full). */
  result?: string;
}

export type CcResultMessage = CcResultSuccess | CcResultError;

/** One Anthropic streaming event (`--include-partial-messages`). */
export type CcStreamEvent =
  | { type: 'message_start'; message: CcApiMessage }
  | { type: 'content_block_start'; index: number; content_block: CcTextBlock | CcThinkingBlock }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        { type: 'text_delta'; text: string } | { type: 'thinking_delta'; thinking: string; estimated_tokens: null };
    }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: 'end_turn' | 'tool_use' | null; stop_sequence: null; stop_details: null; container: null };
      usage: {
        output_tokens: number;
        input_tokens: number;
        cache_creation_input_tokens: number;
        cache_read_input_tokens: number;
        server_tool_use: null;
        iterations: null;
        output_tokens_details: null;
        fallback_credit: null;
      };
      context_management: null;
    }
  | { type: 'message_stop' };

export interface CcPartialMessage extends CcEnvelope {
  type: 'stream_event';
  event: CcStreamEvent;
  parent_tool_use_id: string | null;
}

/** A background task started (the SDK's SDKTaskStartedMessage; mca's tasks are Bash `run_in_background` shells). */
export interface CcTaskStartedMessage extends CcEnvelope {
  type: 'system';
  subtype: 'task_started';
  task_id: string;
  run_id: string;
  tool_use_id?: string;
  description: string;
  is_backgrounded: boolean;
  task_type: 'local_bash';
}

/** A background task wrote output (the SDK's SDKTaskProgressMessage; `summary`: its last line). */
export interface CcTaskProgressMessage extends CcEnvelope {
  type: 'system';
  subtype: 'task_progress';
  task_id: string;
  run_id: string;
  tool_use_id?: string;
  description: string;
  usage: { total_tokens: number; tool_uses: number; duration_ms: number };
  summary: string;
}

/** A background task's state changed (the SDK's SDKTaskUpdatedMessage; mca sends it at the end). */
export interface CcTaskUpdatedMessage extends CcEnvelope {
  type: 'system';
  subtype: 'task_updated';
  task_id: string;
  run_id: string;
  patch: { status: 'completed' | 'failed' | 'killed'; end_time: number };
}

/** A background task ended (the SDK's SDKTaskNotificationMessage). */
export interface CcTaskNotificationMessage extends CcEnvelope {
  type: 'system';
  subtype: 'task_notification';
  task_id: string;
  run_id: string;
  tool_use_id?: string;
  status: 'completed' | 'failed' | 'stopped';
  output_file: string;
  summary: string;
}

/** One live task in `background_tasks_changed`. */
export interface CcBackgroundTaskEntry {
  task_id: string;
  run_id: string;
  task_type: 'local_bash';
  description: string;
}

/** The live background tasks after a start or an end (the SDK's SDKBackgroundTasksChangedMessage). */
export interface CcBackgroundTasksChangedMessage extends CcEnvelope {
  type: 'system';
  subtype: 'background_tasks_changed';
  tasks: CcBackgroundTaskEntry[];
}

export type CcApiRetryCategory =
  | 'authentication_failed'
  | 'rate_limit'
  | 'overloaded'
  | 'invalid_request'
  | 'model_not_found'
  | 'server_error'
  | 'unknown';

/** Claude Code's `system` lines around the replies (claude-code-system.ts, src/headless/session-state-lines.ts). */
export type CcSystemLine = CcEnvelope &
  (
    | {
        type: 'system';
        subtype: 'api_retry';
        attempt: number;
        max_retries: number;
        retry_delay_ms: number;
        error_status: number | null;
        error: CcApiRetryCategory;
      }
    | {
        type: 'system';
        subtype: 'status';
        status: 'requesting' | 'compacting' | null;
        compact_result?: 'success' | 'failed';
        compact_error?: string;
      }
    | {
        type: 'system';
        subtype: 'compact_boundary';
        compact_metadata: { trigger: 'manual' | 'auto'; pre_tokens: number; post_tokens: number };
      }
    | { type: 'system'; subtype: 'session_state_changed'; state: 'idle' | 'running' | 'requires_action' }
    | { type: 'system'; subtype: 'hook_started'; hook_id: string; hook_name: string; hook_event: string }
    | {
        type: 'system';
        subtype: 'hook_response';
        hook_id: string;
        hook_name: string;
        hook_event: string;
        output: string;
        stdout: string;
        stderr: string;
        exit_code?: number;
        outcome: 'success' | 'error' | 'cancelled';
      }
  );

/** A queued user message's progress (only for messages the host gave a uuid). */
export interface CcCommandLifecycle extends CcEnvelope {
  type: 'command_lifecycle';
  command_uuid: string;
  state: 'queued' | 'started' | 'completed';
}

export type CcMessage =
  | CcInitMessage
  | CcAssistantMessage
  | CcUserMessage
  | CcPartialMessage
  | CcResultMessage
  | CcMcaSystemMessage
  | CcSystemLine
  | CcCommandLifecycle
  | CcTaskStartedMessage
  | CcTaskProgressMessage
  | CcTaskUpdatedMessage
  | CcTaskNotificationMessage
  | CcBackgroundTasksChangedMessage;

/** A subagent in the initialize answer (`agents`). */
export interface CcAgentInfo {
  name: string;
  description: string;
  model?: string;
}

/** A slash command in the initialize answer (`commands`). */
export interface CcSlashCommand {
  name: string;
  description: string;
  argumentHint: string;
}

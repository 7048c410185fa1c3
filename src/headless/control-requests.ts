/**
 * The host's control requests (Claude Code's control protocol) and mca's answers. Each handler answers exactly
 * once, success or error; a subtype mca does not know gets an error answer, never a crash.
 */
import { PERMISSION_MODES, type PermissionMode } from '../config/config-choices.js';
import type { SessionDriver } from '../driver/session-driver.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { addHostAgents } from '../subagents/host-agents.js';
import type { CustomCommandInfo } from '../driver/custom-commands-port.js';
import type { HookEngine } from '../hooks/hook-engine.js';
import type { ControlChannel, ControlRequestLine } from './control-channel.js';
import type { HostHookCallbacks } from './host-hooks.js';
import type { HostMcpServers } from './host-mcp-servers.js';
import type { Config } from '../config/config.js';
import { setThinkingBudget } from './thinking-budget.js';
import { unsupportedMessage } from './unsupported-requests.js';
import type { SdkMcpServers } from '../mcp/sdk-servers.js';
import { mcpStatus } from '../claude-code/mcp.js';
import type { CcSlashCommand } from '../claude-code/types.js';
import { agentInfo, contextUsage } from './context-usage.js';
import { rewindFiles, type UserMessageCheckpoints } from './rewind-files.js';
import { backgroundTasks } from '../tools/processes/background-tasks.js';
import { moveToBackground } from '../tools/processes/foreground-commands.js';

export interface ControlContext {
  runtime: Runtime;
  driver: SessionDriver;
  channel: ControlChannel;
  version: string;
  /** The system prompt text the flags gave (the host's initialize adds to it). */
  flagPrompt: { replace: string | undefined; append: string | undefined };
  /** bypassPermissions may be switched on (`--allow-dangerously-skip-permissions`, or started in it). */
  allowBypass: boolean;
  warn: (line: string) => void;
  /** The session's hook engine (absent when `disableAllHooks` turned hooks off: `hooksDisabledBy` names the file). */
  hookEngine: HookEngine | undefined;
  hooksDisabledBy: string | undefined;
  /** The host's in-process MCP servers (initialize `sdkMcpServers`). */
  sdkServers: SdkMcpServers;
  /** The servers the host added with `mcp_set_servers`; toggles and reconnects every server. */
  hostServers: HostMcpServers;
  /** The host's hook callbacks (initialize `hooks`); `interrupt` withdraws the open ones. */
  hostHooks: HostHookCallbacks;
  /** The thinking budget the session started with (`set_max_thinking_tokens null` restores it). */
  thinkingAtStart: Config['thinking'];
  /** The custom slash commands a user message may start with. */
  commands: readonly CustomCommandInfo[];
  /** Which prompt each host user message (by uuid) began, for `rewind_files`. */
  userMessages: UserMessageCheckpoints;
  /** User messages wait for `arrival` before they run (the host's MCP servers connecting). */
  holdPrompts: (arrival: Promise<void>) => void;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((part): part is string => typeof part === 'string').join('\n\n');
  return undefined;
}

function nonEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}

/** The custom slash commands in Claude Code's SlashCommand shape (the hint is what follows the name in `usage`). */
export function slashCommands(commands: readonly CustomCommandInfo[]): CcSlashCommand[] {
  return commands.map((command) => ({
    name: command.name,
    description: command.description,
    argumentHint: command.usage.slice(command.name.length + 2),
  }));
}

/**
 * `initialize`: the host's system prompt (`systemPrompt` replaces mca's identity and answer style, keeping the
 * tool protocol and safety rules; `[""]`, what the SDK sends when the program sets none, keeps mca's prompt as it
 * is), `appendSystemPrompt` (after the flags' own), and what mca offers.
 */
function initialize(context: ControlContext, request: Record<string, unknown>): Record<string, unknown> {
  const replace = text(request.systemPrompt);
  const append = [context.flagPrompt.append, text(request.appendSystemPrompt)]
    .filter((part): part is string => part !== undefined && part.trim() !== '')
    .join('\n\n');
  context.runtime.sessions.customizeSystemPrompt({
    replace: replace !== undefined && replace.trim() !== '' ? replace : context.flagPrompt.replace,
    append: append === '' ? undefined : append,
  });
  for (const line of context.hostHooks.register(request.hooks, context.hookEngine, context.hooksDisabledBy)) {
    context.warn(line);
  }
  if (nonEmpty(request.sdkMcpServers)) {
    context.holdPrompts(context.sdkServers.register(request.sdkMcpServers, request.sdkMcpServerManifests));
  }
  if (nonEmpty(request.agents)) {
    for (const line of addHostAgents(context.runtime.registry, context.runtime.extensions, request.agents)) {
      context.warn(line);
    }
  }
  const model = context.driver.model;
  return {
    commands: slashCommands(context.commands),
    agents: agentInfo(context.runtime),
    output_style: 'default',
    available_output_styles: ['default'],
    models: [{ value: model, displayName: model, description: 'the model mca runs now' }],
    account: {},
    claude_code_version: context.version,
    ...(nonEmpty(request.hooks) ? { hooks_applied: context.hookEngine !== undefined } : {}),
    // onFailure "block" on a matcher is honoured (host-hooks.ts) whenever the host's hooks run at all.
    ...(context.hookEngine ? { hook_on_failure_supported: true } : {}),
  };
}

function setPermissionMode(context: ControlContext, mode: unknown): Record<string, unknown> {
  if (typeof mode !== 'string' || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new Error(`mca does not support the permission mode ${JSON.stringify(mode)}`);
  }
  if (mode === 'bypassPermissions' && !context.allowBypass && context.driver.mode !== 'bypassPermissions') {
    throw new Error('bypassPermissions needs --allow-dangerously-skip-permissions (allowDangerouslySkipPermissions)');
  }
  context.driver.setMode(mode as PermissionMode);
  return { mode };
}

/** Every server in McpServerStatus shape: configured ones, then the host's added ones, then its in-process ones. */
function allServers(context: ControlContext): ReturnType<typeof mcpStatus> {
  return [
    ...mcpStatus(context.runtime.mcp, undefined),
    ...context.hostServers.statuses(),
    ...mcpStatus(undefined, context.sdkServers),
  ];
}

/**
 * `mcp_set_servers {servers}` (answered with McpSetServersResult), `mcp_toggle {serverName, enabled}` and
 * `mcp_reconnect {serverName}` (answered once the server has connected, or with the reason it did not).
 */
function serverAction(context: ControlContext, id: string, request: Record<string, unknown>): void {
  const { channel, hostServers } = context;
  const fail = (error: unknown): void => channel.fail(id, error instanceof Error ? error.message : String(error));
  if (request.subtype === 'mcp_set_servers') {
    void hostServers.set(request.servers).then((result) => channel.succeed(id, { ...result }), fail);
    return;
  }
  const name = request.serverName;
  if (typeof name !== 'string' || name === '') return fail(`${String(request.subtype)} needs "serverName"`);
  if (request.subtype === 'mcp_toggle' && typeof request.enabled !== 'boolean') {
    return fail('mcp_toggle needs "enabled": true or false');
  }
  const action =
    request.subtype === 'mcp_toggle' ? hostServers.toggle(name, request.enabled === true) : hostServers.reconnect(name);
  void action.then((outcome) => (outcome.ok ? channel.succeed(id, {}) : fail(outcome.message)), fail);
}

/**
 * `stop_task {task_id}` (the SDK's `stopTask()`): stops a background task's whole process group; its
 * `task_notification` line (status `stopped`) follows. An unknown or already ended task is an error answer.
 */
function stopTask(channel: ControlChannel, id: string, taskId: unknown): void {
  const task = typeof taskId === 'string' ? backgroundTasks.get(taskId) : undefined;
  if (!task) return channel.fail(id, `No task found with ID: ${String(taskId)}`);
  if (task.status !== 'running') return channel.fail(id, `Task ${task.id} is not running (${task.status})`);
  void backgroundTasks.stop(task.id).then(
    () => channel.succeed(id, {}),
    (error: unknown) => channel.fail(id, error instanceof Error ? error.message : String(error)),
  );
}

/** Answers one control request. */
export function handleControlRequest(context: ControlContext, line: ControlRequestLine): void {
  const { channel, driver } = context;
  const id = line.request_id;
  const request = line.request;
  try {
    switch (request.subtype) {
      case 'initialize':
        return channel.succeed(id, initialize(context, request));
      case 'interrupt': {
        const stillQueued = [...driver.queue];
        context.hostHooks.interrupt();
        driver.interrupt();
        return channel.succeed(id, { still_queued: stillQueued });
      }
      case 'set_permission_mode':
        return channel.succeed(id, setPermissionMode(context, request.mode));
      case 'set_model': {
        const model = typeof request.model === 'string' && request.model !== 'default' ? request.model : undefined;
        driver.setModel(model ?? context.runtime.config.model);
        return channel.succeed(id, {});
      }
      case 'mcp_status':
        // Servers still connecting are waited for (bounded by MCP_TIMEOUT in the client), so the answer is final.
        void context.sdkServers.settled().then(() => channel.succeed(id, { mcpServers: allServers(context) }));
        return;
      case 'mcp_set_servers':
      case 'mcp_toggle':
      case 'mcp_reconnect':
        return serverAction(context, id, request);
      case 'set_max_thinking_tokens': {
        const asked = { max_thinking_tokens: request.max_thinking_tokens, thinking_display: request.thinking_display };
        for (const warning of setThinkingBudget(context.runtime.config, asked, context.thinkingAtStart)) {
          context.warn(warning);
        }
        return channel.succeed(id, {});
      }
      case 'mcp_message': {
        // A message the host's in-process server sent on its own (a notification such as tools/list_changed).
        if (typeof request.server_name === 'string') context.sdkServers.fromHost(request.server_name, request.message);
        return channel.succeed(id, { mcp_response: { jsonrpc: '2.0', result: {}, id: 0 } });
      }
      case 'rewind_files':
        void rewindFiles(context.runtime.checkpoints, context.userMessages, {
          user_message_id: request.user_message_id,
          dry_run: request.dry_run,
        }).then(
          (answer) => channel.succeed(id, { ...answer }),
          (error: unknown) => channel.fail(id, error instanceof Error ? error.message : String(error)),
        );
        return;
      case 'stop_task':
        return stopTask(channel, id, request.task_id);
      case 'background_tasks': {
        // Ctrl+B over the protocol: running foreground Bash commands (or the one of tool_use_id) go on as tasks.
        const callId = typeof request.tool_use_id === 'string' ? request.tool_use_id : undefined;
        return channel.succeed(id, { backgrounded: moveToBackground(callId) || callId === undefined });
      }
      case 'get_context_usage':
        return channel.succeed(id, contextUsage(context, context.sdkServers, context.hostServers.list()));
      default:
        return channel.fail(id, unsupportedMessage(request.subtype));
    }
  } catch (error) {
    channel.fail(id, error instanceof Error ? error.message : String(error));
  }
}

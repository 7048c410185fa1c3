/**
 * `--input-format stream-json` (DESIGN.md "Headless input"): one session driven by NDJSON lines, as Claude Code's
 * CLI is driven by the Agent SDK. `user` lines run in order through the SessionDriver's queue, each answered by
 * Claude Code's messages and one `result` line; `control_request` lines are answered (control-requests.ts);
 * `control_response` lines answer mca's own requests (`can_use_tool`). A line that is not JSON, or not a message
 * mca knows, gets one stderr line and is skipped: nothing else is lost. `finished` resolves once the input ended
 * and every message it carried has its result.
 */
import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../loop/events.js';
import { isAgentEvent, PROMPT_INTERRUPTED, type DriverEvent } from '../driver/driver-events.js';
import type { OpenedSession } from '../driver/open-session.js';
import type { PermissionBroker } from '../driver/permission-broker.js';
import type { SessionDriver } from '../driver/session-driver.js';
import { initMessage } from '../claude-code/init.js';
import { hookLine } from '../claude-code/system.js';
import type { ClaudeCodeTranslator } from '../claude-code/messages.js';
import type { CcInitMessage } from '../claude-code/types.js';
import { claudeCodeTranslator, forwardSubagentLines, type ClaudeCodeSessionInfo } from '../sinks/claude-code-sink.js';
import { backgroundTaskEntries, forwardTaskLines } from '../claude-code/tasks.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { fromClaudeCodeInput } from '../claude-code/tool-input.js';
import { ControlChannel, type ControlRequestLine, type ControlResponseLine } from './control-channel.js';
import { handleControlRequest, type ControlContext } from './control-requests.js';
import { userImages } from './user-images.js';
import { stdioBroker } from './stdio-broker.js';
import { UserMessageCheckpoints } from './rewind-files.js';
import { SdkMcpServers } from '../mcp/sdk-servers.js';
import { initMcpServers } from '../claude-code/mcp.js';
import { mcpLimits } from '../runtime/mcp-servers.js';
import { HostHookCallbacks, INTERRUPTED } from './host-hooks.js';
import { HostMcpServers } from './host-mcp-servers.js';
import { emitsSessionState, SessionStateLines } from './session-state-lines.js';

type TurnEnd = Extract<AgentEvent, { type: 'turn_end' }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface HeadlessOptions {
  runtime: Runtime;
  version: string;
  /** Writes one JSON line to stdout (redacted by the caller). */
  write: (line: object) => void;
  /** One line to stderr. */
  warn: (line: string) => void;
  info: (driver: () => SessionDriver | undefined) => ClaudeCodeSessionInfo;
  /** `--permission-prompt-tool stdio`: calls that need a yes are asked of the host. */
  askHost: boolean;
  allowBypass: boolean;
  flagPrompt: { replace: string | undefined; append: string | undefined };
  /** `--replay-user-messages`: each user message is echoed with its uuid (what `rewind_files` names). */
  replayUserMessages?: boolean;
  /** Opens the session (src/driver/open-session.ts) with the front's broker (absent when nobody is asked). */
  open: (broker: PermissionBroker | undefined) => Promise<OpenedSession>;
  /** `--include-hook-events`: a `hook_started` and a `hook_response` line for each hook run. */
  includeHookEvents?: boolean;
  /** The end a message's result reports (the front's stall watchdog and SIGTERM rewrite an interrupted one). */
  adjustEnd?: (end: TurnEnd) => TurnEnd;
  /** `session_state_changed` lines (default: CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS is set). */
  emitSessionState?: boolean;
}

/** The text of a user message's content: a string, or the text blocks of an array. */
export function userText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter((block): block is { type: 'text'; text: string } => {
      const candidate = block as { type?: unknown; text?: unknown };
      return candidate?.type === 'text' && typeof candidate.text === 'string';
    })
    .map((block) => block.text);
  return texts.join('\n\n');
}

export class HeadlessSession {
  readonly driver: SessionDriver;
  /** Ends the session: SessionEnd hooks, MCP servers, the session file (open-session.ts). */
  readonly close: OpenedSession['close'];
  private readonly translator: ClaudeCodeTranslator;
  private readonly info: ClaudeCodeSessionInfo;
  private readonly control: ControlContext;
  private readonly sdkServers: SdkMcpServers;
  private readonly hostServers: HostMcpServers;
  /** The uuids of user messages submitted and not yet begun, in order; which prompt each began. */
  private readonly waitingUuids: string[] = [];
  private readonly userMessages = new UserMessageCheckpoints();
  private submitted = 0;
  /** While set, user messages queue behind it (the host's MCP servers connecting), in order. */
  private promptGate: Promise<void> | undefined;
  private answered = 0;
  /** `initialize` requests seen: the second and later get the background tasks snapshot. */
  private initializations = 0;
  private inputEnded = false;
  /** The host's own uuids of the messages waiting (command_lifecycle names only those). */
  private readonly hostUuids = new Set<string>();
  /** The host's uuid of the message whose turn runs now. */
  private running: string | undefined;
  private readonly state: SessionStateLines;
  private end: TurnEnd | undefined;
  private resolveFinished: () => void = () => undefined;
  readonly finished: Promise<void>;

  /** The session over `options`: its control channel, its broker (when the host is asked) and its driver. */
  static async open(options: HeadlessOptions): Promise<HeadlessSession> {
    const made: { info?: ClaudeCodeSessionInfo; state?: SessionStateLines } = {};
    // A can_use_tool waiting for the host is `requires_action` (the state line goes first, as Claude Code's).
    const channel = new ControlChannel((line) => {
      const sent = line as { type?: unknown; request_id?: unknown; request?: { subtype?: unknown } };
      if (typeof sent.request_id === 'string') {
        if (sent.type === 'control_request' && sent.request?.subtype === 'can_use_tool')
          made.state?.asked(sent.request_id);
        if (sent.type === 'control_cancel_request') made.state?.answered(sent.request_id);
      }
      options.write(line);
    });
    const { projectRoot } = options.runtime;
    const broker = options.askHost
      ? stdioBroker({
          channel,
          toClaudeCodeInput: (tool, input) => made.info?.toClaudeCodeInput(tool, input) ?? input,
          fromClaudeCodeInput: (tool, input) => fromClaudeCodeInput(tool, input, projectRoot),
        })
      : undefined;
    const session = new HeadlessSession(options, channel, await options.open(broker));
    made.info = session.info;
    made.state = session.state;
    return session;
  }

  private constructor(
    private readonly options: HeadlessOptions,
    private readonly channel: ControlChannel,
    opened: OpenedSession,
  ) {
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
    const { runtime } = options;
    this.driver = opened.driver;
    this.state = new SessionStateLines(
      options.write,
      () => this.driver.controller.sessionId,
      options.emitSessionState ?? emitsSessionState(),
    );
    this.close = opened.close;
    const { customCommands } = this.driver;
    this.info = options.info(() => this.driver);
    this.translator = claudeCodeTranslator(this.info);
    forwardSubagentLines(this.info, (line) => this.options.write(line));
    forwardTaskLines(this.info.sessionId, (line) => this.options.write(line));
    const limits = mcpLimits();
    this.sdkServers = new SdkMcpServers({
      registry: runtime.registry,
      limits,
      messenger: (server) => async (message) => {
        const reply = await this.channel.request({ subtype: 'mcp_message', server_name: server, message }).answer;
        return reply.ok ? { ok: true, response: reply.response.mcp_response } : reply;
      },
      notice: options.warn,
    });
    this.hostServers = new HostMcpServers({
      projectRoot: runtime.projectRoot,
      mcaHome: runtime.config.mcaHome,
      registry: runtime.registry,
      limits,
      configured: () => runtime.mcp,
      sdk: this.sdkServers,
    });
    this.control = {
      runtime,
      hostServers: this.hostServers,
      hostHooks: new HostHookCallbacks(this.channel),
      thinkingAtStart: runtime.config.thinking,
      driver: this.driver,
      channel: this.channel,
      version: options.version,
      flagPrompt: options.flagPrompt,
      allowBypass: options.allowBypass,
      warn: options.warn,
      hookEngine: this.driver.hookEngine,
      hooksDisabledBy: runtime.hooks.loaded.disabledBy,
      sdkServers: this.sdkServers,
      commands: customCommands?.list ?? [],
      userMessages: this.userMessages,
      holdPrompts: (arrival) => {
        this.promptGate = (this.promptGate ?? Promise.resolve()).then(() => arrival);
      },
    };
    this.driver.subscribe((event) => this.onDriverEvent(event));
    // The first turn's init reports each configured MCP server's outcome (connected with its tools, or failed), as
    // Claude Code's does: its prompt waits for them, at most MCP_TIMEOUT (the turn would wait for them anyway).
    if (runtime.mcp && runtime.mcp.list().length > 0) this.promptGate = runtime.mcp.settled();
    if (options.includeHookEvents) {
      this.driver.hookEngine?.watch((report) =>
        options.write({ ...hookLine(report), uuid: randomUUID(), session_id: this.driver.controller.sessionId }),
      );
    }
  }

  /** Whether a `can_use_tool` waits for the host (the model is not expected to make progress then). */
  get waitingForHost(): boolean {
    return this.state.waitingForHost;
  }

  /** One line of stdin. */
  line(raw: string): void {
    if (raw.trim() === '') return;
    let message: { type?: unknown; [field: string]: unknown };
    try {
      message = JSON.parse(raw) as typeof message;
    } catch {
      return this.options.warn(`ignored a stdin line that is not JSON: ${raw.slice(0, 80)}`);
    }
    if (typeof message !== 'object' || message === null) {
      return this.options.warn(`ignored a stdin line that is not a message: ${raw.slice(0, 80)}`);
    }
    switch (message.type) {
      case 'user':
        return this.userMessage(message);
      case 'control_request':
        if (typeof message.request_id !== 'string' || typeof message.request !== 'object' || !message.request) {
          return this.options.warn('ignored a control_request without request_id or request');
        }
        handleControlRequest(this.control, message as unknown as ControlRequestLine);
        return this.afterControlRequest(message as unknown as ControlRequestLine);
      case 'control_response': {
        const answer = message as unknown as ControlResponseLine;
        this.channel.answer(answer);
        if (typeof answer.response?.request_id === 'string') this.state.answered(answer.response.request_id);
        return;
      }
      case 'control_cancel_request':
      case 'keep_alive':
      case 'update_environment_variables':
        return;
      default:
        return this.options.warn(`ignored a stdin message of type ${JSON.stringify(message.type)}`);
    }
  }

  /** stdin ended: the session finishes once every message has its result. */
  endInput(): void {
    this.inputEnded = true;
    // Nobody can answer a question any more: an open can_use_tool is denied, so its turn can end.
    this.channel.closeAll('the host closed its input');
    this.state.forgetQuestions();
    this.maybeFinish();
  }

  private userMessage(message: Record<string, unknown>): void {
    const inner = message.message as { content?: unknown } | undefined;
    const text = userText(inner?.content);
    const { images, problems } = userImages(inner?.content);
    for (const problem of problems) this.options.warn(problem);
    if ((text === undefined || text.trim() === '') && images.length === 0) {
      return this.options.warn('ignored a user message without text');
    }
    this.submitted += 1;
    const uuid = typeof message.uuid === 'string' && UUID.test(message.uuid) ? message.uuid : randomUUID();
    this.waitingUuids.push(uuid);
    if (uuid === message.uuid) this.hostUuids.add(uuid);
    this.state.queued(uuid === message.uuid ? uuid : undefined);
    if (this.options.replayUserMessages) {
      this.options.write({
        type: 'user',
        message: inner,
        parent_tool_use_id: null,
        session_id: this.driver.controller.sessionId,
        uuid,
        isReplay: true,
      });
    }
    if (this.promptGate) this.promptGate = this.promptGate.then(() => this.driver.submit(text ?? '', images));
    else this.driver.submit(text ?? '', images);
  }

  private onDriverEvent(event: DriverEvent): void {
    // What a person should know (a hook that failed or timed out, …) goes to stderr, as in -p; stdout is the host's.
    if (event.type === 'notice') return this.options.warn(event.text);
    if (event.type === 'prompt') return this.beginTurn(true);
    if (event.type === 'prompt_blocked') {
      // A UserPromptSubmit hook blocked the prompt (or the host interrupted while its callback ran): the message
      // still gets its result line, as an interrupt or an error naming the reason.
      this.beginTurn(false);
      const reason = event.reason === INTERRUPTED || event.reason === PROMPT_INTERRUPTED ? 'interrupted' : 'error';
      const answer =
        reason === 'interrupted' ? event.reason : `A UserPromptSubmit hook blocked the prompt: ${event.reason}`;
      this.writeResult({ ...this.emptyEnd(reason), answer });
      return this.maybeFinish();
    }
    if (isAgentEvent(event)) {
      for (const line of this.translator.event(event)) this.options.write(line);
      if (event.type === 'turn_end') this.end = event;
      return;
    }
    if (event.type === 'run_end' && event.kind === 'turn') {
      this.writeResult(this.end ?? this.failedEnd(event));
      this.maybeFinish();
    }
  }

  /** A message's result line, then its `completed` (and `idle` when no other message waits). */
  private writeResult(end: TurnEnd): void {
    this.options.write(this.translator.result(this.options.adjustEnd?.(end) ?? end));
    this.answered += 1;
    this.state.completed(this.running, this.answered >= this.submitted);
    this.running = undefined;
  }

  /**
   * A turn begins: its message is `started`, the init line tells the setup as it is now (Claude Code sends one at
   * each turn's start), the translator's turn state starts again; `began`: the prompt went to the model.
   */
  private beginTurn(began: boolean): void {
    const uuid = this.waitingUuids.shift();
    this.running = uuid !== undefined && this.hostUuids.delete(uuid) ? uuid : undefined;
    this.state.started(this.running);
    this.options.write(this.initLine());
    this.translator.beginTurn();
    this.end = undefined;
    if (uuid !== undefined && began) this.userMessages.began(uuid, this.driver.controller.sessionId);
  }

  /**
   * A host that initializes again (it reconnected) gets the live background tasks right behind the answer, even
   * when there are none (the SDK's SDKBackgroundTasksChangedMessage contract): it need not wait for a change.
   */
  private afterControlRequest(line: ControlRequestLine): void {
    if (line.request.subtype !== 'initialize' || ++this.initializations < 2) return;
    this.options.write({
      type: 'system',
      subtype: 'background_tasks_changed',
      tasks: backgroundTaskEntries(),
      uuid: randomUUID(),
      session_id: this.driver.controller.sessionId,
    });
  }

  /** The `system`/`init` line: the session's setup as it is now. */
  private initLine(): CcInitMessage {
    const mcpServers = [
      ...initMcpServers(this.options.runtime.mcp, this.sdkServers),
      ...this.hostServers.statuses().map(({ name, status }) => ({ name, status })),
    ];
    // `slash_commands`: custom commands (MCP prompts among them) and skills (claude-code-session.ts).
    return initMessage({ ...this.info.init(), mcpServers });
  }

  private emptyEnd(reason: 'interrupted' | 'error'): TurnEnd {
    return {
      type: 'turn_end',
      reason,
      answer: '',
      steps: 0,
      usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    };
  }

  private failedEnd(event: Extract<DriverEvent, { type: 'run_end' }>): TurnEnd {
    const message =
      'error' in event
        ? `The turn failed: ${event.error instanceof Error ? event.error.message : String(event.error)}`
        : 'the turn ended without an answer';
    return { ...this.emptyEnd(event.aborted ? 'interrupted' : 'error'), answer: message };
  }

  private maybeFinish(): void {
    if (!this.inputEnded || this.answered < this.submitted) return;
    void this.sdkServers.closeAll();
    void this.hostServers.closeAll();
    this.resolveFinished();
  }
}

/**
 * One ACP session: one runtime (its own `cwd`, rules, tools, MCP servers, session file) and the SessionDriver
 * openSession made for it, as every front has. The session sends what the driver emits as `session/update`s (in
 * order, before the prompt's response), runs each `session/prompt` through the driver and answers its stop reason;
 * `session/cancel` interrupts the driver (model call, tools and an open permission question stop).
 */
import type {
  AgentContext,
  AvailableCommand,
  ContentBlock,
  SessionModeState,
  SessionUpdate,
  StopReason,
} from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../config/config.js';
import type { OpenedSession } from '../driver/open-session.js';
import type { SessionDriver } from '../driver/session-driver.js';
import { DRIVER_COMMANDS } from '../driver/slash-parse.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { AcpError } from './acp-error.js';
import { EventUpdates, stopReasonOf } from './event-updates.js';
import { historyUpdates } from './history-updates.js';
import { promptImages, promptText } from './prompt-text.js';
import { TaskCallUpdates } from './task-updates.js';

/** How long closing waits for an interrupted turn to end. */
export const CLOSE_WAIT_MS = 5_000;

export const MODES: SessionModeState['availableModes'] = [
  { id: 'default', name: 'Default', description: 'Ask before edits, commands and MCP tools' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Edit files without asking; ask before commands' },
  { id: 'plan', name: 'Plan', description: 'Read and plan only; nothing changes' },
  { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Run everything without asking' },
];

export interface AcpSessionOptions {
  runtime: Runtime;
  /** The session as openSession made it, with the ACP broker and the driver's own `/compact` and `/init`. */
  opened: OpenedSession;
  client: AgentContext;
  /** One line to stderr. */
  log: (line: string) => void;
  /** Calls whose command runs in a client terminal (client-terminal.ts), shared with the command host. */
  inTerminal?: Set<string>;
}

export class AcpSession {
  readonly driver: SessionDriver;
  readonly id: string;
  readonly runtime: Runtime;
  private readonly updates: EventUpdates;
  /** Background tasks' progress and end in the calls that started them. */
  private readonly tasks: TaskCallUpdates;
  private sending: Promise<void> = Promise.resolve();
  /** A connection that failed once fails every later update: one log line is enough. */
  private sendFailed = false;
  private running = false;
  private cancelled = false;
  /** The prompt's work while one runs (close() waits for it, so its tools' processes are gone). */
  private work: Promise<void> | undefined;

  constructor(private readonly options: AcpSessionOptions) {
    const { runtime } = options;
    this.runtime = runtime;
    this.id = runtime.controller.sessionId;
    this.driver = options.opened.driver;
    this.updates = new EventUpdates({
      projectRoot: runtime.projectRoot,
      registry: runtime.registry,
      contextWindow: runtime.config.contextWindow,
      ...(options.inTerminal ? { inTerminal: options.inTerminal } : {}),
    });
    this.tasks = new TaskCallUpdates((update) => this.send(update), options.inTerminal);
    this.driver.subscribe((event) => {
      if (event.type === 'prompt') this.updates.beginTurn();
      this.tasks.beforeEvent(event);
      for (const update of this.updates.updates(event)) this.send(update);
      this.tasks.afterEvent(event);
    });
  }

  get modes(): SessionModeState {
    return { currentModeId: this.driver.mode, availableModes: MODES };
  }

  /** Sends one update after every earlier one (the first failure is logged: the client may have gone). */
  send(update: SessionUpdate): void {
    this.sending = this.sending
      .then(() => this.options.client.notify('session/update', { sessionId: this.id, update }))
      .catch((error: unknown) => {
        if (!this.sendFailed) this.options.log(`could not send an update: ${(error as Error).message}`);
        this.sendFailed = true;
      });
  }

  /** Resolves once every update sent so far has been written. */
  async flushed(): Promise<void> {
    await this.sending;
  }

  /** The built-in commands the driver runs itself, then the custom commands (files, MCP prompts). */
  commands(): AvailableCommand[] {
    const custom = this.driver.customCommands?.list ?? [];
    return [
      ...[...DRIVER_COMMANDS, ...custom].map((command) => ({
        name: command.name,
        description: command.description,
        ...(command.usage.includes(' ')
          ? { input: { hint: command.usage.slice(command.usage.indexOf(' ') + 1) } }
          : {}),
      })),
    ];
  }

  /** `session/load`: the stored conversation as updates. */
  replay(): void {
    for (const update of historyUpdates(
      this.driver.controller.history(),
      this.runtime.projectRoot,
      this.runtime.registry,
    )) {
      this.send(update);
    }
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.running) throw new AcpError('ACP_BUSY', `session ${this.id} is already answering a prompt`);
    const { images, problems } = promptImages(blocks);
    const text = [promptText(blocks), ...problems].filter((part) => part !== '').join('\n\n');
    if (text.trim() === '' && images.length === 0) throw new AcpError('ACP_INVALID_PARAMS', 'the prompt is empty');
    this.running = true;
    this.cancelled = false;
    this.updates.beginTurn();
    try {
      // `/compact [focus]` and `/init` are the driver's own commands; anything else is a custom command or a prompt.
      // Only the person's typed text may hold `@` mentions: an embedded selection or file is the editor's content.
      const own = blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
      this.work = this.driver.run(text.trim(), images, own);
      await this.work;
    } finally {
      this.running = false;
      this.work = undefined;
    }
    await this.flushed();
    return this.cancelled ? 'cancelled' : stopReasonOf(this.updates.end);
  }

  cancel(): void {
    if (!this.running) return;
    this.cancelled = true;
    this.driver.interrupt();
  }

  setMode(mode: string): void {
    const known = MODES.find((entry) => entry.id === mode);
    if (!known)
      throw new AcpError('ACP_INVALID_PARAMS', `unknown mode "${mode}" (${MODES.map((m) => m.id).join(', ')})`);
    this.driver.setMode(known.id as PermissionMode);
  }

  /** The client went away: stop the turn, run SessionEnd hooks, end MCP servers and close the session file. */
  async close(): Promise<void> {
    this.driver.interrupt();
    if (this.work) {
      // The interrupted turn ends its tools (a command's process group is killed); bounded, never a hang at exit.
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
      await Promise.race([this.work.catch(() => undefined), bound]);
      clearTimeout(timer);
    }
    // SessionEnd hooks, MCP servers, the session file (open-session.ts; a failed step is logged).
    await this.options.opened.close('other');
    this.tasks.close();
  }
}

/**
 * The SessionDriver: one conversation, whatever front end shows it. It routes each submitted line (a built-in slash
 * command, a custom command, a `!` shell line, or a prompt for the model), queues lines submitted while it is busy
 * and runs them in order, interrupts, holds the conversation's permission mode and model (through the session
 * manager's one shared copy: no front keeps its own), runs compactions and switches sessions. Front ends subscribe
 * to its events and send it what the person does; it imports nothing of Ink, React or stdout.
 */
import { pendingTaskNotices } from '../tools/processes/task-notices.js';
import type { AgentController, SessionInfo } from '../loop/controller.js';
import type { AgentEvent } from '../loop/events.js';
import type { SessionEndReason } from '../hooks/hook-events.js';
import type { HookEngine } from '../hooks/hook-engine.js';
import { hooksReport } from './driver-hooks.js';
import type { PermissionMode } from '../config/config.js';
import { LineQueue, type Images } from './line-queue.js';
import { applyCommandModel, type CustomCommandsPort } from './custom-commands-port.js';
import { createDecisionPoint, type SessionDecisionPoint } from './decision-point.js';
import {
  PROMPT_INTERRUPTED,
  type Busy,
  type DriverEvent,
  type DriverListener,
  type NoticeTone,
} from './driver-events.js';
import { DriverHooks, type TurnEnd } from './driver-hooks.js';
import { INIT_PROMPT } from './init-prompt.js';
import { routeLine, runsAtOnce } from './line-route.js';
import { runCustomCommand, runShellLine, type LineRunnerHost } from './line-runners.js';
import { errorText, nextPermissionMode, type SessionDriverOptions } from './session-driver-options.js';
import { resolveModelName } from '../config/model-aliases.js';

export { nextPermissionMode, type SessionDriverOptions } from './session-driver-options.js';

export class SessionDriver {
  private active: AgentController;
  private readonly listeners = new Set<DriverListener>();
  private busyNow: Busy = null;
  /** Lines submitted while busy, run in order when the driver is free. */
  private readonly queued = new LineQueue();
  /** Shell notes waiting for the next message to the model. */
  private notes: string[] = [];
  private abort: AbortController | null = null;
  /** UserPromptSubmit hooks are running; an interrupt meanwhile ends the turn before it starts. */
  private promptHooksRunning = false;
  private interruptedEarly = false;
  /** The focus of the /compact running now (PreCompact's custom_instructions). */
  private compactFocus = '';
  /** The decision point of the open session (answers "yes, don't ask again" belong to one session). */
  private decisions: SessionDecisionPoint;
  /** Present only when some hook is in effect. */
  private readonly hooks: DriverHooks | undefined;
  private closing: Promise<void> | undefined;
  /** What the `!` line and custom command runners (line-runners.ts) may do here. */
  private readonly lineHost: LineRunnerHost;

  constructor(private readonly options: SessionDriverOptions) {
    this.active = options.sessions.current();
    this.hooks = options.hooks?.opened.engine
      ? new DriverHooks(
          options.hooks,
          { sessionId: () => this.active.sessionId, mode: () => this.mode, model: () => this.model },
          (line) => this.notice(line, 'warning'),
        )
      : undefined;
    this.decisions = this.installDecisionPoint(this.active);
    this.lineHost = {
      options,
      decisions: () => this.decisions,
      setAbort: (abort) => (this.abort = abort),
      currentAbort: () => this.abort,
      setBusy: (busy) => this.setBusy(busy),
      emit: (event) => this.emit(event),
      notice: (text, tone) => this.notice(text, tone),
      addNote: (note) => void this.notes.push(note),
      next: () => this.next(),
      runTurn: (text, shown, after, mentionText) => this.runTurn(text, shown, after, [], mentionText),
      commandModel: (model) => applyCommandModel(model, options.applyCommandModel, this),
    };
  }

  get controller(): AgentController {
    return this.active;
  }

  get busy(): Busy {
    return this.busyNow;
  }

  get queue(): readonly string[] {
    return this.queued.texts;
  }

  /** The conversation's permission mode: the one copy, shared with every session the manager opens. */
  get mode(): PermissionMode {
    return this.active.permissionMode;
  }

  get model(): string {
    return this.active.model;
  }

  get customCommands(): CustomCommandsPort | undefined {
    return this.options.customCommands;
  }

  /** Every event from now on; returns the unsubscribe function. */
  subscribe(listener: DriverListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Enter: run the line now, or queue it while busy (a line that only shows something runs at once). */
  submit(text: string, images: Images = []): void {
    if (this.busyNow && !runsAtOnce(routeLine(text, this.options))) {
      this.queued.push(text, images);
      this.emit({ type: 'queue', queue: this.queued.texts });
      return;
    }
    void this.run(text, images);
  }

  /**
   * Runs a line now and resolves when what it started has finished (a command's turn included): a slash
   * command, a custom command, a `!` line or a turn. `-p` awaits it; the REPL submits. `mentionText`: the part of
   * a prompt that is the person's own words when a front adds more (an editor's selection); all of it otherwise.
   */
  async run(text: string, images: Images = [], mentionText?: string): Promise<void> {
    const route = routeLine(text, this.options);
    switch (route.kind) {
      case 'custom':
        return await runCustomCommand(this.lineHost, text, route);
      case 'slash':
        return this.options.slash?.(route.parsed);
      case 'own':
        return route.parsed.name === 'compact' ? await this.compact(route.parsed.args || undefined) : await this.init();
      case 'memory':
        return this.options.memoryNote?.(route.note);
      case 'shell':
        return await runShellLine(this.lineHost, route.command);
      case 'prompt':
        return await this.runTurn(text, text, undefined, images, mentionText ?? text);
    }
  }

  /** `/init`: a turn with a fixed prompt (init-prompt.ts), shown as the command the person typed. */
  async init(): Promise<void> {
    await this.runTurn(INIT_PROMPT, '/init');
  }

  /** Esc while busy with queued lines: the newest queued one is dropped. False when none was queued. */
  dropQueued(): boolean {
    if (!this.queued.dropNewest()) return false;
    this.emit({ type: 'queue', queue: this.queued.texts });
    return true;
  }

  /** Ctrl-C/Esc while busy: abort the run; an open permission question is answered "no" so the call returns. */
  interrupt(): void {
    this.options.broker?.cancel('Interrupted by the user.');
    // While UserPromptSubmit hooks run the turn has no controller yet: the interrupt is kept for it.
    if (this.promptHooksRunning) this.interruptedEarly = true;
    this.abort?.abort();
  }

  setMode(mode: PermissionMode): void {
    this.active.setPermissionMode(mode);
    this.emit({ type: 'mode', mode });
  }

  /** Shift+Tab: default → acceptEdits → plan → default. */
  cycleMode(): void {
    this.setMode(nextPermissionMode(this.mode));
  }

  /** `/model`, the SDK's `set_model`, a command's `model:`: a short name (`haiku`) becomes its model id here. */
  setModel(name: string): void {
    const model = resolveModelName(name);
    this.active.setModel(model);
    this.emit({ type: 'model', model });
  }

  /** `/compact [focus]`. */
  async compact(focus: string | undefined): Promise<void> {
    this.compactFocus = focus ?? '';
    await this.drive('compact', (signal) => this.active.compact({ ...(focus ? { focus } : {}), signal }));
  }

  /** `/hooks`: the hooks in effect, each with its source file and last outcome. */
  hooksReport(): string[] {
    return this.hooks?.report() ?? hooksReport([], this.options.hooks?.opened.loaded);
  }

  /** The hook engine the session runs (a host adds its callbacks to it); absent when hooks are off. */
  get hookEngine(): HookEngine | undefined {
    return this.options.hooks?.opened.engine;
  }

  /** Whether some hook is in effect (fronts then wait for SessionEnd hooks before they exit). */
  get hooksActive(): boolean {
    return this.hooks !== undefined;
  }

  /**
   * SessionStart of the first session now (the REPL calls it at launch; otherwise the first prompt fires it).
   * Resolves at once without hooks.
   */
  async start(): Promise<void> {
    await this.hooks?.start();
  }

  /**
   * The front is closing: SessionEnd hooks run (`prompt_input_exit` when the person left the REPL), once however
   * often it is called (the REPL's exit, then openSession's close).
   */
  close(reason: SessionEndReason = 'other'): Promise<void> {
    this.closing ??= this.hooks?.end(reason) ?? Promise.resolve();
    return this.closing;
  }

  /** `/clear`: a fresh session in the same project. */
  async newSession(): Promise<void> {
    try {
      // Promise.resolve: the contract's newSession may be sync or async.
      const next = await Promise.resolve(this.options.sessions.newSession());
      await this.hooks?.end('clear');
      this.switchTo(next, `Started a new session ${next.sessionId.slice(0, 8)}.`, true);
      await this.hooks?.switched('clear');
    } catch (error) {
      this.notice(`Cannot start a new session: ${errorText(error)}`, 'error');
    }
  }

  /** `/resume id`; `rewound`: the same session reloaded after a conversation rewind (the screen starts afresh). */
  async resume(id: string, rewound?: { message: string }): Promise<void> {
    try {
      const next = await this.options.sessions.resume(id);
      const message =
        rewound?.message ?? `Resumed session ${next.sessionId.slice(0, 8)} (${next.history().length} messages).`;
      this.switchTo(next, message, rewound !== undefined);
      await this.hooks?.switched('resume');
    } catch (error) {
      this.notice(`Cannot resume ${id}: ${errorText(error)}`, 'error');
    }
  }

  /** Past sessions worth resuming: not the one open now, not empty ones (opened, nothing asked). */
  async resumableSessions(): Promise<SessionInfo[]> {
    const current = this.active.sessionId;
    const list = await this.options.sessions.listSessions();
    return list.filter((session) => session.id !== current && session.messages > 0);
  }

  private emit(event: DriverEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  private notice(text: string, tone: NoticeTone = 'info'): void {
    this.emit({ type: 'notice', text, tone });
  }

  private setBusy(busy: Busy): void {
    this.busyNow = busy;
    this.emit({ type: 'busy', busy });
  }

  /**
   * Every call of `controller` (the model's, a command's `!` lines, the user's `!` lines) passes one decision point,
   * which reads the driver's mode and asks the driver's broker.
   */
  private installDecisionPoint(controller: AgentController): SessionDecisionPoint {
    const { policy, broker } = this.options;
    const point = createDecisionPoint({
      policy,
      broker,
      mode: () => this.mode,
      hooks: this.hooks?.session,
      onHookStop: () => this.abort?.abort(),
    });
    controller.setDecisionPoint(point);
    return point;
  }

  private switchTo(next: AgentController, message: string, clear: boolean): void {
    const mode = this.mode;
    this.active = next;
    // The mode the user chose carries over (the session manager's settings are shared; this holds for any manager).
    if (next.permissionMode !== mode) next.setPermissionMode(mode);
    this.decisions = this.installDecisionPoint(next);
    this.notes = [];
    this.emit({ type: 'session_switched', controller: next, message, clear });
  }

  /** Runs the oldest queued line when the driver is free; called whenever a run ends. */
  private next(): void {
    if (this.busyNow) return;
    const line = this.queued.shift();
    if (!line) return;
    this.emit({ type: 'queue', queue: this.queued.texts });
    void this.run(line.text, line.images);
  }

  /**
   * Drains one event stream (a turn or a compaction) to the listeners; resolves with the turn's end, if it had one.
   * `chain` false leaves the queue alone (a Stop hook may continue the turn first).
   */
  private async drive(
    kind: 'turn' | 'compact',
    stream: (signal: AbortSignal) => AsyncGenerator<AgentEvent>,
    chain = true,
  ): Promise<TurnEnd | undefined> {
    const abort = new AbortController();
    this.abort = abort;
    this.setBusy(kind);
    let end: TurnEnd | undefined;
    let error: unknown;
    let failed = false;
    try {
      for await (const event of stream(abort.signal)) {
        if (event.type === 'turn_end') end = event;
        // Awaited while the agent waits at this event: PreCompact runs before the compaction does.
        if (this.hooks && event.type === 'compaction_start') {
          await this.hooks.compacting(event.reason === 'manual' ? 'manual' : 'auto', this.compactFocus);
        }
        this.emit(event);
        // A call moved to a fallback model (`--fallback-model`): the rest of the session stays on it.
        if (event.type === 'model_fallback' && this.model === event.from) this.setModel(event.to);
        if (this.hooks && event.type === 'compaction_end') await this.hooks.compacted();
      }
    } catch (thrown) {
      failed = true;
      error = thrown;
    }
    if (this.abort === abort) this.abort = null;
    this.compactFocus = '';
    const ended = end !== undefined;
    this.emit({ type: 'run_end', kind, ended, aborted: abort.signal.aborted, ...(failed ? { error } : {}) });
    this.options.broker?.cancel('The turn ended before an answer.');
    this.setBusy(null);
    if (chain) this.next();
    return end;
  }

  /**
   * `shown` is what a front shows as the user's line when it differs (a custom command's `/name args`); `after`
   * runs when the turn is over (Stop hooks included), before the next queued item.
   */
  /** `mentionText`: the user's own words in `text` (`@` mentions come only from there); all of `text` by default. */
  private async runTurn(
    text: string,
    shown: string = text,
    after?: () => void,
    images: Images = [],
    mentionText: string = text,
  ): Promise<void> {
    let prompt = text;
    if (this.hooks) {
      // A prompt a hook blocks is erased: it is never shown as sent, and the model never sees it. Lines submitted
      // meanwhile queue behind it.
      this.setBusy('turn');
      this.promptHooksRunning = true;
      this.interruptedEarly = false;
      const outcome = await this.hooks.prompt(text).finally(() => (this.promptHooksRunning = false));
      if (this.interruptedEarly) {
        this.interruptedEarly = false;
        this.notice(PROMPT_INTERRUPTED, 'warning');
        // A front that answers every message (headless) still gets its end: an interrupted one.
        this.emit({ type: 'prompt_blocked', reason: PROMPT_INTERRUPTED });
        this.setBusy(null);
        after?.();
        return this.next();
      }
      if ('blocked' in outcome) {
        this.emit({ type: 'prompt_blocked', reason: outcome.blocked });
        this.setBusy(null);
        after?.();
        return this.next();
      }
      prompt = outcome.input;
    }
    const attached = this.options.attachments ? await this.options.attachments(prompt) : undefined;
    for (const line of attached?.notices ?? []) this.notice(line, 'warning');
    prompt = attached?.text ?? prompt;
    // Background tasks that ended since the model last heard: told with this prompt.
    const notices = pendingTaskNotices();
    if (notices !== '') prompt = `${prompt}\n\n${notices}`;
    this.emit({ type: 'prompt', text: shown });
    const notes = this.notes;
    this.notes = [];
    const input = notes.length > 0 ? `${notes.join('\n\n')}\n\n${prompt}` : prompt;
    const end = await this.drive('turn', (signal) => this.active.run(input, { signal, images, mentionText }), false);
    if (this.hooks) {
      await this.hooks.afterTurn(end, (note) =>
        this.drive('turn', (signal) => this.active.run(note, { signal, mentionText: '' }), false),
      );
    }
    after?.();
    this.next();
  }
}

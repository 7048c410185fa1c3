/**
 * The session driver's side of hooks (src/hooks): when each session-level event fires and what its answer does to
 * the conversation. The decision point handles the tool events (PreToolUse, PermissionRequest, PostToolUse,
 * Notification); this module the rest:
 * - SessionStart: once, before the first prompt of the driver's first session (`startup`, or `resume` for -c and
 *   --resume), on /clear (`clear`), on /resume (`resume`) and after a compaction (`compact`); its context goes with
 *   the next prompt;
 * - UserPromptSubmit: before each prompt reaches the model; a block (or `continue: false`) erases the prompt;
 * - Stop: when a turn ended with an answer; a block makes the agent go on with the reason, once per prompt (the
 *   next Stop has `stop_hook_active: true` and the turn ends then whatever it answers);
 * - SubagentStop: the same for a subagent about to answer its Agent call (matchers test its type);
 * - PreCompact: before each compaction (`manual` for /compact with its focus, `auto` otherwise);
 * - SessionEnd: when a session is left (/clear) or the front closes the driver.
 */
import type { AgentEvent } from '../loop/events.js';
import type { PermissionMode } from '../config/config.js';
import type { SessionEndReason, SessionStartSource } from '../hooks/hook-events.js';
import { hooksReport as report } from '../hooks/hook-listing.js';
import type { OpenedHooks } from '../hooks/hook-sources.js';
import { reminder, SessionHooks } from '../hooks/session-hooks.js';
import type { Extensions } from '../subagents/install.js';
import type { SubagentStopping } from '../subagents/subagent-run.js';

export interface DriverHooksOptions {
  opened: OpenedHooks;
  /**
   * The runtime's slot for SubagentStop (src/agents install.ts): with hooks in effect the driver fills it, so a
   * finishing subagent runs the SubagentStop hooks and a block makes it go on once with the reason.
   */
  subagentStop?: Extensions['subagentStop'];
  /** mca's session file of a session (the hooks' `transcript_path`). */
  transcriptPathOf(sessionId: string): string;
  /** The project directory (the hooks' `cwd`). */
  cwd: string;
  /** How the driver's first session was opened: a new one (`startup`) or a continued one (`resume`). */
  startSource?: SessionStartSource;
}

/** What the driver reads of itself for the hooks' base fields. */
export interface DriverState {
  sessionId(): string;
  mode(): PermissionMode;
  model(): string;
}

export type TurnEnd = Extract<AgentEvent, { type: 'turn_end' }>;

/** `/hooks` of a driver without an engine: nothing configured, or all held back or disabled. */
export function hooksReport(entries: [], loaded: OpenedHooks['loaded'] | undefined): string[] {
  return loaded ? report(entries, loaded) : ['No hooks in effect.'];
}

export type PromptOutcome = { readonly input: string } | { readonly blocked: string };

export class DriverHooks {
  readonly session: SessionHooks;
  /** SessionStart context waiting for the next prompt. */
  private context: string[] = [];
  /** The first session's SessionStart, once begun: a prompt submitted meanwhile waits for its context. */
  private starting: Promise<void> | undefined;

  constructor(
    private readonly options: DriverHooksOptions,
    private readonly state: DriverState,
    notify: (line: string) => void,
  ) {
    this.session = new SessionHooks(
      options.opened.loaded,
      options.opened.engine,
      () => ({
        sessionId: state.sessionId(),
        transcriptPath: options.transcriptPathOf(state.sessionId()),
        cwd: options.cwd,
        permissionMode: state.mode(),
      }),
      notify,
    );
    if (options.subagentStop) options.subagentStop.handler = (stop) => this.subagentStopping(stop);
  }

  /** A subagent is about to answer: SubagentStop hooks may make it go on (once; runSubagent counts). */
  private async subagentStopping(stop: SubagentStopping): Promise<{ continueWith?: string }> {
    const verdict = await this.session.stopping(stop.answer, stop.stopHookActive, {
      agentId: stop.parentToolUseId,
      agentType: stop.agent,
      agentTranscriptPath: stop.transcriptPath,
    });
    if (verdict.continueWith === undefined) return {};
    return {
      continueWith: `<system-reminder>\nA SubagentStop hook blocked stopping: ${verdict.continueWith}\n</system-reminder>`,
    };
  }

  /** Whether any hook is in effect (the driver does nothing more than this check otherwise). */
  get active(): boolean {
    return this.session.active;
  }

  private async sessionStart(source: SessionStartSource): Promise<void> {
    this.context.push(...(await this.session.sessionStarted(source, this.state.model())));
  }

  /** SessionStart of the driver's first session, once; the front may call it at launch, else the first prompt does. */
  async start(): Promise<void> {
    this.starting ??= this.sessionStart(this.options.startSource ?? 'startup');
    await this.starting;
  }

  /** /clear or /resume switched to another session (SessionEnd of the old one came before the switch). */
  async switched(source: 'clear' | 'resume'): Promise<void> {
    this.starting ??= Promise.resolve();
    this.context = [];
    await this.sessionStart(source);
  }

  /** A compaction is about to run. */
  async compacting(trigger: 'manual' | 'auto', focus = ''): Promise<void> {
    await this.session.compacting(trigger, focus);
  }

  /** A compaction ended: SessionStart `compact`, whose context goes with the next prompt. */
  async compacted(): Promise<void> {
    await this.sessionStart('compact');
  }

  /** The prompt as the model gets it (with the hooks' context), or why it was erased. */
  async prompt(text: string): Promise<PromptOutcome> {
    await this.start();
    const verdict = await this.session.promptSubmitted(text);
    if (verdict.blocked !== undefined) return { blocked: verdict.blocked };
    if (verdict.stop !== undefined) return { blocked: verdict.stop || 'a UserPromptSubmit hook stopped the turn' };
    const blocks = [reminder('SessionStart', this.context), reminder('UserPromptSubmit', verdict.context)];
    this.context = [];
    return { input: [text, ...blocks.filter((block) => block !== '')].join('\n\n') };
  }

  /**
   * The turn ended with `answer`: the instruction to go on with when a Stop hook blocks, at most once per prompt
   * (`alreadyContinued` true on the stop that follows a continuation).
   */
  async stopping(answer: string, alreadyContinued: boolean): Promise<string | undefined> {
    const verdict = await this.session.stopping(answer, alreadyContinued);
    if (alreadyContinued || verdict.continueWith === undefined) return undefined;
    return verdict.continueWith;
  }

  /**
   * A turn ended: while it ended with an answer and a Stop hook blocks, `goOn` runs a continuation with the hook's
   * reason (once per prompt; the stop after it has `stop_hook_active: true`).
   */
  async afterTurn(end: TurnEnd | undefined, goOn: (note: string) => Promise<TurnEnd | undefined>): Promise<void> {
    let last = end;
    let continued = false;
    while (last && (last.reason === 'finish' || last.reason === 'answer')) {
      const instruction = await this.stopping(last.answer, continued);
      if (instruction === undefined) return;
      continued = true;
      last = await goOn(`<system-reminder>\nA Stop hook blocked stopping: ${instruction}\n</system-reminder>`);
    }
  }

  async end(reason: SessionEndReason): Promise<void> {
    await this.session.sessionEnded(reason);
  }

  /** `/hooks`: the hooks in effect with their source file and last outcome, and those held back. */
  report(): string[] {
    const { entries, loaded } = this.session.listing();
    return report(entries, loaded);
  }
}

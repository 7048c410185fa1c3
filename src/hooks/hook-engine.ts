/**
 * The hook engine of one session: given an event, it picks the hooks whose matcher selects it, runs each distinct
 * command once (identical commands from several scopes or groups run once), all in parallel, and combines their
 * answers (hook-result.ts). It remembers each hook's last outcome for `/hooks`. Loaded only when some hook is
 * configured (hook-sources.ts decides), so a session without hooks never imports it.
 */
import type { EnvironmentView } from '../config/child-environment.js';
import { randomUUID } from 'node:crypto';
import { fromClaudeCodeInput } from '../claude-code/tool-input.js';
import { callbackRunResult, type HookCallbackRunner } from './hook-callbacks.js';
import type { HookCommand } from './hook-config.js';
import { toolNamesOf } from '../tools/registry/tool-catalog.js';
import { matchTargetOf, TOOL_EVENTS, type HookEvent, type HookEventName, type HookSessionInfo } from './hook-events.js';
import { hookInput } from './hook-input.js';
import { interpretRun, type HookRunOutcome } from './hook-output.js';
import type { ProjectCommandBox } from '../tools/processes/bash-box.js';
import { runHookProcess, type HookProcessResult } from './hook-process.js';
import { combineOutcomes, NO_HOOKS, type HookEventResult } from './hook-result.js';
import { matches } from './matcher.js';

/** A hook in effect and how its last run went, for `/hooks`. */
export interface HookListing {
  readonly hook: HookCommand;
  readonly last?: { readonly at: Date; readonly summary: string };
}

/**
 * One hook run as a watcher sees it (stream-json's `hook_started` / `hook_response` with --include-hook-events):
 * `id` pairs the two, `name` is `Event:target` (`PreToolUse:Bash`) or the event alone.
 */
export type HookRunReport =
  | { phase: 'started'; id: string; name: string; event: HookEventName }
  | {
      phase: 'finished';
      id: string;
      name: string;
      event: HookEventName;
      stdout: string;
      stderr: string;
      exitCode: number | null;
      outcome: 'success' | 'error' | 'cancelled';
    };

function reportOutcome(outcome: HookRunOutcome): 'success' | 'error' | 'cancelled' {
  if (outcome.kind === 'aborted') return 'cancelled';
  if (outcome.kind === 'success' || (outcome.kind === 'blocked' && outcome.exitCode === 0)) return 'success';
  return 'error';
}

export interface HookEngineOptions {
  projectRoot: string;
  /** The runtime's environment (src/config/child-environment.ts); absent: process.env with the session's overlay. */
  env?: EnvironmentView;

  /** Runs the project's own hook commands in the sandbox while it is on (sandbox.boxProjectCommands). */
  boxProjectCommand?: ProjectCommandBox | undefined;
}

/** Runs one callback hook (hook-callbacks.ts) through `runner`, timed like a process. */
async function runCallback(
  hook: HookCommand & { callbackId: string },
  runner: HookCallbackRunner,
  input: Record<string, unknown>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<HookProcessResult> {
  const started = Date.now();
  const toolUseId = typeof input.tool_use_id === 'string' ? input.tool_use_id : undefined;
  const answer = await runner({
    callbackId: hook.callbackId,
    input,
    toolUseId,
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  return callbackRunResult(answer, Date.now() - started);
}

function summaryOf(outcome: HookRunOutcome): string {
  const took = `${outcome.durationMs} ms`;
  switch (outcome.kind) {
    case 'success':
      return outcome.decision ? `${outcome.decision} (exit 0, ${took})` : `ok (exit 0, ${took})`;
    case 'blocked': {
      const reason = (outcome.reason ?? '').split('\n')[0] ?? '';
      return `${outcome.decision ?? 'blocked'}: ${reason.length > 80 ? `${reason.slice(0, 79)}…` : reason}`;
    }
    case 'failed':
      return outcome.exitCode === null ? `ended by a signal (${took})` : `failed (exit ${outcome.exitCode}, ${took})`;
    case 'timeout':
      return `timed out after ${outcome.hook.timeoutSec} s`;
    case 'aborted':
      return 'interrupted';
    case 'not-started':
      return 'could not start';
  }
}

export class HookEngine {
  private readonly last = new Map<HookCommand, { at: Date; summary: string }>();
  private readonly hooks: HookCommand[];
  private callbackRunner: HookCallbackRunner | undefined;
  private readonly watchers = new Set<(report: HookRunReport) => void>();

  constructor(
    hooks: readonly HookCommand[],
    private readonly options: HookEngineOptions,
  ) {
    this.hooks = [...hooks];
  }

  /**
   * Adds an SDK host's callback hooks (hook-callbacks.ts) after the settings files' ones; `runner` sends them to the
   * host. A host that initializes again replaces its earlier callbacks.
   */
  addCallbacks(hooks: readonly HookCommand[], runner: HookCallbackRunner): void {
    const kept = this.hooks.filter((hook) => hook.callbackId === undefined);
    this.hooks.splice(0, this.hooks.length, ...kept, ...hooks);
    this.callbackRunner = runner;
  }

  /** Tells `watcher` of every hook run from now on; returns the function that stops it. */
  watch(watcher: (report: HookRunReport) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Whether any hook is configured for `event` (its matcher may still select nothing). */
  has(event: HookEventName): boolean {
    return this.hooks.some((hook) => hook.event === event);
  }

  /** The hooks in effect, in settings order, with their last outcome. */
  list(): HookListing[] {
    return this.hooks.map((hook) => {
      const last = this.last.get(hook);
      return last ? { hook, last } : { hook };
    });
  }

  /** Runs the hooks `event` selects and combines their answers; resolves NO_HOOKS when none matched. */
  async run(event: HookEvent, session: HookSessionInfo, signal?: AbortSignal): Promise<HookEventResult> {
    const target = matchTargetOf(event);
    // A tool event matches under any of the tool's names: `Task` and `Agent` matchers both select an Agent call.
    const targets = target !== undefined && TOOL_EVENTS.has(event.name) ? toolNamesOf(target) : [target];
    const selected = this.hooks.filter(
      (hook) => hook.event === event.name && targets.some((each) => matches(hook.matcher, each)),
    );
    if (selected.length === 0) return NO_HOOKS;
    const distinct = new Map<string, HookCommand[]>();
    for (const hook of selected) distinct.set(hook.command, [...(distinct.get(hook.command) ?? []), hook]);
    const input = hookInput(event, session, this.options.projectRoot);
    const stdin = `${JSON.stringify(input)}\n`;
    const outcomes = await Promise.all(
      [...distinct.values()].map(async (same) => {
        const hook = same[0] as HookCommand;
        const timeoutSec = Math.max(...same.map((each) => each.timeoutSec));
        const runner = this.callbackRunner;
        const id = randomUUID();
        const name = target === undefined ? event.name : `${event.name}:${target}`;
        this.tell({ phase: 'started', id, name, event: event.name });
        const run =
          hook.callbackId !== undefined
            ? runner
              ? await runCallback({ ...hook, callbackId: hook.callbackId }, runner, input, timeoutSec * 1000, signal)
              : callbackRunResult({ kind: 'error', message: 'no host to ask' }, 0)
            : await runHookProcess({
                command: hook.command,
                stdin,
                projectRoot: this.options.projectRoot,
                ...(this.options.env ? { env: this.options.env } : {}),
                timeoutMs: timeoutSec * 1000,
                ...(hook.scope === 'project' ? { box: this.options.boxProjectCommand } : {}),
                ...(hook.pluginRoot === undefined ? {} : { pluginRoot: hook.pluginRoot }),
                ...(signal ? { signal } : {}),
              });
        const outcome = interpretRun(event.name, { ...hook, timeoutSec }, run);
        if (this.watchers.size > 0) {
          const stdout = run.stdout.bytes.toString('utf8');
          const stderr = run.stderr.bytes.toString('utf8');
          const finished = { phase: 'finished' as const, id, name, event: event.name, stdout, stderr };
          this.tell({ ...finished, exitCode: run.exitCode, outcome: reportOutcome(outcome) });
        }
        const record = { at: new Date(), summary: summaryOf(outcome) };
        for (const each of same) this.last.set(each, record);
        return outcome;
      }),
    );
    const toolName = 'toolName' in event ? event.toolName : undefined;
    return combineOutcomes(event.name, outcomes, (input) =>
      toolName === undefined ? input : fromClaudeCodeInput(toolName, input, this.options.projectRoot),
    );
  }

  private tell(report: HookRunReport): void {
    for (const watcher of this.watchers) watcher(report);
  }
}

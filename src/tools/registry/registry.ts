/**
 * The tool registry: the tools the agent may call, what the model is told of them (tool-descriptions.ts), and `run`,
 * the one entry point every call takes: input check (tool-input-check.ts), the tool's plan, the call gate, then the
 * plan (with the BeforeRun step around it). `run` never throws.
 */
import { withPendingTaskNotices } from '../processes/task-notices.js';
import type { ToolSpec } from '../../providers/types.js';
import { redactValue } from '../../text/redact-secrets.js';
import { approvalTitle, callSubject, deniedEnvelope } from './approval.js';
import type { ToolCall, ToolDefinition, ToolPlan } from './define-tool.js';
import { errorEnvelope, type ToolEnvelope } from './envelope.js';
import { checkToolInput, loadInputValidation } from './tool-input-check.js';
import { toolPrompts, toolSpecs } from './tool-descriptions.js';
import type { CallGate, ToolContext, ToolEnvironment } from './tool-context.js';
import { builtinTools } from './builtin-tools.js';
import { rememberTool } from './tool-catalog.js';
import { McaError } from '../../errors/mca-error.js';
import { decideSafely, recheckRewritten, guardThrows, requestOf } from './registry-steps.js';
import type { FileAccess } from '../files/file-access.js';
import type { BashBox } from '../processes/bash-box.js';
import type { CommandHost } from '../processes/command-host.js';

export { nativeDescription } from './tool-descriptions.js';

export class ToolRegistryError extends McaError {
  readonly code = 'DUPLICATE_TOOL' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ToolRegistryError';
  }
}

/** The tools the agent may call. `run` is the one entry point and never throws. */
export interface ToolRegistryOptions {
  /**
   * Exact values (the API keys mca holds) replaced with [REDACTED] in every result before anyone sees it: a
   * command can read them from /proc/$PPID/environ even though its own environment lacks them.
   */
  secrets?: readonly string[];
  /** Runs before every allowed call executes (checkpoints: src/checkpoints); see BeforeRun. */
  beforeRun?: BeforeRun;
  /** The file-access port every call of this registry gets (an ACP client's files); absent: the disk. */
  files?: FileAccess;
  /** Where the model's Bash commands run (an ACP client's terminals); absent: mca spawns them. */
  commands?: CommandHost;
  /** The sandbox Bash runs commands in (src/sandbox); absent: none configured. */
  box?: BashBox;
}

/**
 * A step between the decision point and execution, installed by an integration above the tools (checkpoints
 * store what a call may change). It answers what to run once the call finished, or undefined. When it throws, the
 * call does not run (it would run unguarded) and fails with EXECUTION_ERROR naming why.
 */
export type BeforeRun = (
  call: ToolCall,
  tool: ToolDefinition,
  signal: AbortSignal,
) => Promise<((envelope: ToolEnvelope) => Promise<void>) | undefined>;

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();
  /** Each registered tool's aliases → its name (ToolDefinition.aliases). */
  private readonly aliases = new Map<string, string>();
  private readonly unavailable = new Map<string, string>();
  private readonly secrets: readonly string[];
  private readonly beforeRun: BeforeRun | undefined;
  private readonly files: FileAccess | undefined;
  private readonly commands: CommandHost | undefined;
  private readonly box: BashBox | undefined;
  private warming: Promise<void> | undefined;
  private readonly arrivals = new Set<Promise<void>>();
  private readonly pendingNotices: string[] = [];
  /** The prompts and native definitions of the current list, rebuilt only after the list changed. */
  private described: { prompts?: Array<{ name: string; prompt: string }>; specs?: ToolSpec[] } = {};

  constructor(options: ToolRegistryOptions = {}) {
    this.secrets = options.secrets ?? [];
    this.beforeRun = options.beforeRun;
    this.files = options.files;
    this.commands = options.commands;
    this.box = options.box;
  }

  register(tool: ToolDefinition): this {
    for (const name of [tool.name, ...(tool.aliases ?? [])]) {
      if (this.tools.has(name) || this.aliases.has(name)) {
        throw new ToolRegistryError(`tool ${name} is already registered`);
      }
    }
    this.tools.set(tool.name, tool);
    for (const alias of tool.aliases ?? []) this.aliases.set(alias, tool.name);
    rememberTool(tool);
    this.described = {};
    return this;
  }

  /**
   * Removes a tool while the session runs (an MCP server went away, or its list changed): the next model request
   * no longer offers it, and a call to it is answered as an unknown tool. False when no such tool was registered.
   */
  unregister(name: string): boolean {
    const tool = this.tools.get(name);
    if (!tool) return false;
    this.tools.delete(name);
    for (const alias of tool.aliases ?? []) this.aliases.delete(alias);
    this.described = {};
    return true;
  }

  /** A tool mca has but this session cannot offer (WebSearch without a server search): a call gets `reason`. */
  markUnavailable(name: string, reason: string): void {
    this.unavailable.set(name, reason);
  }

  /**
   * Imports what the first tool calls would: the validator, every input schema, and each tool's libraries. For
   * time mca spends waiting anyway (a model request in flight, the REPL's first prompt), so a first call does not
   * pay ~5-15 ms of module loading. Never rejects: a module that fails to load fails the call that needs it.
   */
  warm(): Promise<void> {
    this.warming ??= Promise.allSettled([
      loadInputValidation(),
      ...[...this.tools.values()].flatMap((tool) => [
        ...('load' in tool.input ? [tool.input.load()] : []),
        ...(tool.preload ? [tool.preload()] : []),
      ]),
    ]).then(() => undefined);
    return this.warming;
  }

  /**
   * Tools still arriving (MCP servers connecting, each source bounding its own wait by MCP_TIMEOUT): the next
   * model request waits until `arrival` settles. Notices a source reports (a server that failed) are handed to
   * the agent, which shows them as warnings.
   */
  expectTools(arrival: Promise<unknown>): void {
    const settled = arrival.then(
      () => undefined,
      () => undefined,
    );
    this.arrivals.add(settled);
    void settled.then(() => this.arrivals.delete(settled));
  }

  /** Resolves once every expected arrival has settled (at once when none is pending). */
  async toolsArrived(): Promise<void> {
    while (this.arrivals.size > 0) await Promise.all([...this.arrivals]);
  }

  notice(line: string): void {
    this.pendingNotices.push(line);
  }

  takeNotices(): string[] {
    return this.pendingNotices.splice(0);
  }

  /** The tool called `name`, or the one `name` is an alias of. */
  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name) ?? this.tools.get(this.aliases.get(name) ?? '');
  }

  /** The registered name for `name` (itself, or the tool it is an alias of); undefined for an unknown name. */
  canonicalName(name: string): string | undefined {
    return this.get(name)?.name;
  }

  list(): ToolDefinition[] {
    return [...this.tools.values()];
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** A tool that declares `none`: it only reads, so calls to it may run concurrently. */
  isReadOnly(name: string): boolean {
    return this.get(name)?.permission === 'none';
  }

  /** Each tool's prompt: its prose from prompts/tools/<file> with the parameter section generated from its schema. */
  prompts(): Array<{ name: string; prompt: string }> {
    this.described.prompts ??= toolPrompts(this.list());
    return this.described.prompts;
  }

  /**
   * The native `tools` definitions: each tool's prose (its prompt without the heading and the text protocol's
   * `Action:` examples) and the JSON Schema of its input (for the built-in tools computed by the build).
   */
  toolSpecs(): ToolSpec[] {
    // The same array until the list changes: the request prefix (and the provider's cache) stays byte-identical.
    this.described.specs ??= toolSpecs(this.list());
    return this.described.specs;
  }

  /**
   * Runs one call: validates its input, lets the tool work out its plan (a call that fails anyway ends here,
   * without asking), asks `ctx.gate.decide` (every call, read-only ones with no request), then runs the plan.
   */
  async run(call: ToolCall, ctx: RunContext): Promise<ToolEnvelope> {
    // process.hrtime, not performance.now(): the `performance` global loads node:perf_hooks (~1.7 ms at start).
    const started = process.hrtime.bigint();
    const envelope = redactValue(await this.runGuarded(call, ctx), this.secrets);
    return {
      ...envelope,
      stats: { ...envelope.stats, durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6) },
    };
  }

  private async runGuarded(written: ToolCall, ctx: RunContext): Promise<ToolEnvelope> {
    const tool = this.get(written.name);
    if (!tool) {
      const reason = this.unavailable.get(written.name);
      if (reason !== undefined) return errorEnvelope('INVALID_PARAM', reason);
      return errorEnvelope(
        'INVALID_PARAM',
        `Unknown tool "${written.name}". Available tools: ${this.names().join(', ')}.`,
      );
    }
    // A call under an alias is a call of the tool: the decision point, rules and hooks see its own name.
    const call = written.name === tool.name ? written : { ...written, name: tool.name };
    const { name } = call;
    if (ctx.signal.aborted) {
      return errorEnvelope('EXECUTION_ERROR', `${name} was interrupted before it started.`, {
        data: { interrupted: true },
      });
    }
    const { gate, ...environment } = ctx;
    const toolContext: ToolContext = {
      ...environment,
      ...(this.files && !environment.files ? { files: this.files } : {}),
      ...(this.commands && !environment.commands ? { commands: this.commands } : {}),
      ...(this.box && !environment.box ? { box: this.box } : {}),
      callId: call.id,
      source: call.source,
      gate,
    };
    const validated = await checkToolInput(tool, call.input);
    if (!validated.ok) return validated.envelope;
    return await guardThrows(name, ctx.signal, async () => {
      const plan = this.guarded(
        tool,
        call,
        validated.data,
        await tool.prepare(validated.data, toolContext),
        ctx.signal,
      );
      if (!plan.ok) return plan.envelope;
      const request = requestOf(tool, plan, validated.data);
      if (request === 'refused') {
        return deniedEnvelope(
          name,
          plan.request?.title ?? name,
          `${name} declares no permission and may not ask for one`,
        );
      }
      const decision = await decideSafely(gate.decide, { ...call, input: validated.data }, request);
      if (decision.behavior === 'deny') {
        return deniedEnvelope(
          name,
          request?.title ?? approvalTitle(name, callSubject(validated.data)),
          decision.message,
        );
      }
      if (decision.updatedInput === undefined) return await this.finish(call, validated.data, plan.execute, ctx);
      // The decision point rewrote the input: it is checked and planned again, and runs as allowed.
      const updated = await checkToolInput(tool, decision.updatedInput);
      if (!updated.ok) return updated.envelope;
      const replanned = this.guarded(
        tool,
        call,
        updated.data,
        await tool.prepare(updated.data, toolContext),
        ctx.signal,
      );
      if (!replanned.ok) return replanned.envelope;
      const rewritten = { ...call, input: updated.data };
      const recheck = await recheckRewritten(gate.decide, rewritten, request, requestOf(tool, replanned, updated.data));
      if (recheck?.behavior === 'deny') return deniedEnvelope(name, request?.title ?? name, recheck.message);
      return await this.finish(call, updated.data, replanned.execute, ctx);
    });
  }

  /** Runs an allowed call, then hands its result (redacted) to `ctx.gate.afterRun` with the input it ran with. */
  private async finish(
    call: ToolCall,
    input: unknown,
    execute: () => Promise<ToolEnvelope>,
    ctx: RunContext,
  ): Promise<ToolEnvelope> {
    // A background task that ended meanwhile is told with this result (the model's next request carries it).
    const envelope = withPendingTaskNotices(await execute());
    const { afterRun } = ctx.gate;
    if (!afterRun) return envelope;
    return await afterRun({ ...call, input }, redactValue(envelope, this.secrets));
  }

  /** The plan with the BeforeRun step around its execution. */
  private guarded(tool: ToolDefinition, call: ToolCall, input: unknown, plan: ToolPlan, signal: AbortSignal): ToolPlan {
    const { beforeRun } = this;
    if (!plan.ok || !beforeRun) return plan;
    return {
      ...plan,
      execute: async () => {
        let after: ((envelope: ToolEnvelope) => Promise<void>) | undefined;
        try {
          after = await beforeRun({ ...call, input }, tool, signal);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return errorEnvelope(
            'EXECUTION_ERROR',
            `${tool.name} did not run: its checkpoint could not be stored (${message}).`,
          );
        }
        let envelope: ToolEnvelope | undefined;
        try {
          envelope = await plan.execute();
          return envelope;
        } finally {
          // A failed after-step leaves the checkpoint's "before" side, which is what a restore needs.
          await after?.(envelope ?? errorEnvelope('EXECUTION_ERROR', 'the call threw')).catch(() => undefined);
        }
      },
    };
  }
}

/** What `run` needs beside the call: the session's environment and the gate its calls pass. */
export interface RunContext extends ToolEnvironment {
  gate: CallGate;
}

export function createDefaultRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const registry = new ToolRegistry(options);
  for (const tool of builtinTools()) registry.register(tool);
  return registry;
}

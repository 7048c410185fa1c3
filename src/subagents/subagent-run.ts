/**
 * Runs one Agent call: the nested session takes the prompt as its one turn; its events go to the subagent event
 * bus (labelled with the Agent call's id), never to the parent's stream; its final answer becomes the tool result,
 * with how many steps it took, which files it read (the facts ledger names the subagent with them), where its
 * transcript is, and its token usage (carried into the session's cost).
 */
import { join } from 'node:path';
import { carriedUsageStats } from '../loop/carried-usage.js';
import type { Config } from '../config/config.js';
import type { RoundEnd } from '../context/message.js';
import { addModelUsage, type UsageByModel } from '../context/archived-usage.js';
import { addUsage, type ModelProvider, ZERO_USAGE } from '../providers/types.js';
import { isRecord } from '../text/json-guards.js';
import { errorEnvelope, successEnvelope, type ToolEnvelope } from '../tools/registry/envelope.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import { toolNamed } from '../tools/registry/tool-catalog.js';
import type { CallGate, ToolContext } from '../tools/registry/tool-context.js';
import type { AgentDefinition } from './agent-definition.js';
import { skillPreload } from './skill-preload.js';
import type { Skill } from './skills.js';
import { skillListing } from './skill-listing.js';
import type { SubagentEvents } from './subagent-events.js';
import { createNestedSession } from './subagent-session.js';
import { subagentRoot, withWorktreeReport } from './subagent-worktree.js';
import { MAX_SUBAGENT_DEPTH, subagentGate, subagentRegistry } from './subagent-tools.js';

/** Files listed in a result (the ledger's "found by" lines); more are counted. */
const MAX_FILES_LISTED = 30;

/** What the Agent tool needs from the runtime, read at each call (the session and model may have changed). */
export interface SubagentHost {
  config: Config;
  provider: ModelProvider;
  /** The session's registry: the subagent's tools are picked from its definitions. */
  registry: ToolRegistry;
  projectRoot: string;
  trusted: boolean;
  secrets: readonly string[];
  /** The session's model now (for `model: inherit`). */
  model(): string;
  /** Where this session's subagent transcripts go (`<session dir>/<session-id>.agents`). */
  transcriptDir(): string;
  skills(): ReadonlyMap<string, Skill>;
  events: SubagentEvents;
  /**
   * The SubagentStop hooks' say when the subagent is about to answer (the hooks engine plugs in here): a
   * `continueWith` makes it go on with that text, once. Absent: no hooks, it answers.
   */
  stopping?: (stop: SubagentStopping) => Promise<{ continueWith?: string | undefined }>;
}

/** What a SubagentStop hook is told. */
export interface SubagentStopping {
  parentToolUseId: string;
  agent: string;
  /** The subagent's own transcript. */
  transcriptPath: string;
  answer: string;
  stopHookActive: boolean;
}

export interface SubagentRequest {
  definition: AgentDefinition;
  description: string;
  prompt: string;
}

interface RunRecord {
  end: { reason: RoundEnd; answer: string } | undefined;
  /** Per model: the subagent's own model, and any its own subagents ran on. */
  usage: UsageByModel;
  steps: number;
  tools: Map<string, number>;
  files: Set<string>;
}

function fileName(callId: string): string {
  return `${callId.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`;
}

function noteTool(record: RunRecord, tool: string, input: unknown, result: ToolEnvelope): void {
  record.tools.set(tool, (record.tools.get(tool) ?? 0) + 1);
  if (result.status === 'error' || !isRecord(input)) return;
  for (const touch of toolNamed(tool)?.locations?.(input, result.data) ?? []) record.files.add(touch.path);
}

function resultOf(request: SubagentRequest, record: RunRecord, transcriptPath: string): ToolEnvelope {
  const { definition } = request;
  const end = record.end ?? { reason: 'error' as const, answer: 'the subagent ended without an answer' };
  const files = [...record.files];
  const data = {
    agent: definition.name,
    description: request.description,
    answer: end.answer,
    end: end.reason,
    steps: record.steps,
    tools: Object.fromEntries(record.tools),
    files_read: files.slice(0, MAX_FILES_LISTED),
    ...(files.length > MAX_FILES_LISTED ? { files_more: files.length - MAX_FILES_LISTED } : {}),
    transcript: transcriptPath,
  };
  const stats = carriedUsageStats(record.usage);
  const footer = `\n\n(subagent ${definition.name}: ${record.steps} steps; transcript ${transcriptPath})`;
  if (end.reason === 'finish' || end.reason === 'answer')
    return successEnvelope(data, `${end.answer}${footer}`, { stats });
  if (end.reason === 'step_limit') {
    return successEnvelope(data, `${end.answer}${footer}`, { status: 'partial', stats });
  }
  const envelope = errorEnvelope(
    'EXECUTION_ERROR',
    `subagent ${definition.name} stopped (${end.reason}): ${end.answer}`,
    { data },
  );
  return { ...envelope, stats: { ...envelope.stats, ...stats } };
}

/** Runs the subagent to its answer. Never throws: a failure is an error envelope. */
export async function runSubagent(
  host: SubagentHost,
  request: SubagentRequest,
  ctx: ToolContext,
  parent: CallGate,
): Promise<ToolEnvelope> {
  const { definition } = request;
  if ((parent.depth ?? 0) >= MAX_SUBAGENT_DEPTH) {
    return errorEnvelope(
      'INVALID_PARAM',
      `Subagents nest at most ${MAX_SUBAGENT_DEPTH} deep; do this task yourself instead of starting another subagent.`,
    );
  }
  // The session's gate one level deeper: its PreToolUse and PostToolUse hooks see the subagent's calls too (source
  // `subagent`), and its path screen applies.
  const isolated = await subagentRoot(definition, host.projectRoot, ctx.callId);
  if (!isolated.ok) return isolated.envelope;
  const gate = subagentGate(definition, { ...parent, pathScreen: ctx.pathScreen });
  const registry = subagentRegistry(definition, host.registry, host.secrets);
  const transcriptPath = join(host.transcriptDir(), fileName(ctx.callId));
  const skills = host.skills();
  const agent = createNestedSession({
    definition,
    config: host.config,
    provider: host.provider,
    registry,
    gate,
    projectRoot: isolated.root,
    trusted: host.trusted,
    secrets: host.secrets,
    model: definition.model === 'inherit' ? host.model() : definition.model,
    transcriptPath,
    toolMemory: ctx.toolMemory,
    env: ctx.env,
    systemExtra: registry.get('Skill') ? skillListing([...skills.values()]) : undefined,
  });
  const label = { parentToolUseId: ctx.callId, agent: definition.name };
  host.events.emit({ type: 'subagent_start', ...label, description: request.description, transcriptPath });
  const record: RunRecord = { end: undefined, usage: {}, steps: 0, tools: new Map(), files: new Set() };
  try {
    let input = `${skillPreload(definition.skills, skills)}${request.prompt}`;
    // A SubagentStop hook may ask the subagent to go on, once (the second stop carries stop_hook_active).
    for (let stopHookActive = false; ; stopHookActive = true) {
      const steps = record.steps;
      for await (const event of agent.run(input, { signal: ctx.signal, mentionText: '' })) {
        host.events.emit({ type: 'subagent_event', ...label, event });
        if (event.type === 'usage') record.usage = addModelUsage(record.usage, event.usage);
        else if (event.type === 'tool_end') noteTool(record, event.tool, event.input, event.result);
        else if (event.type === 'turn_end') record.end = { reason: event.reason, answer: event.answer };
        if (event.type === 'step_start') record.steps = steps + event.step;
      }
      // As for Stop: only an answer is held back (an error, an interrupt or the step limit ends the run).
      const reason = record.end?.reason;
      if (!host.stopping || ctx.signal.aborted || record.end === undefined) break;
      if (reason !== 'finish' && reason !== 'answer') break;
      const verdict = await host.stopping({ ...label, transcriptPath, answer: record.end.answer, stopHookActive });
      // After one continuation the hook is told so (stop_hook_active) and not obeyed again.
      if (verdict.continueWith === undefined || stopHookActive) break;
      input = verdict.continueWith;
    }
  } catch (error) {
    record.end = { reason: 'error', answer: (error as Error).message };
  } finally {
    agent.close();
  }
  const result = await withWorktreeReport(isolated.worktree, resultOf(request, record, transcriptPath));
  const end = record.end ?? { reason: 'error' as const, answer: '' };
  const usage = Object.values(record.usage).reduce((total, each) => addUsage(total, each), { ...ZERO_USAGE });
  host.events.emit({ type: 'subagent_stop', ...label, ...end, transcriptPath, usage });
  return result;
}

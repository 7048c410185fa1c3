/**
 * Context replay: every recorded session through mca, the peer policies and the `naive` reference, in the
 * workloads of workloads.ts: each session alone (200k), long days of 15 tasks (200k and 64k), and interactive
 * long days where every few steps the person types a short follow-up (200k and 64k).
 */
import { replay, type ReplayMetrics } from './replay/driver.js';
import { McaStrategy } from './replay/mca-strategy.js';
import { ClaudeCodeStrategy } from './replay/peers/claude-code.js';
import { CodexStrategy } from './replay/peers/codex.js';
import { GeminiCliStrategy } from './replay/peers/gemini-cli.js';
import { NaiveStrategy } from './replay/peers/naive.js';
import { OpencodeStrategy } from './replay/peers/opencode.js';
import { PRICED_MODEL } from './replay/pricing.js';
import { toReplayTask } from './replay/replay-task.js';
import type { ReplayTask, Strategy, StrategyName, StrategyOptions } from './replay/strategy.js';
import { loadSessions } from './replay/trajectory.js';
import { REVISIT_GAP, toDays, toInteractive, toRevisitDays } from './replay/workloads.js';

export const TASKS_PER_DAY = 15;

/** The order of every table and plot: mca, the peers, then the reference. */
export const STRATEGIES: Readonly<Record<StrategyName, (options: StrategyOptions) => Strategy>> = {
  mca: (options) => new McaStrategy(options),
  'mca-native': (options) => new McaStrategy(options, 'native'),
  'claude-code': (options) => new ClaudeCodeStrategy(options),
  codex: (options) => new CodexStrategy(options),
  opencode: (options) => new OpencodeStrategy(options),
  'gemini-cli': (options) => new GeminiCliStrategy(options),
  naive: (options) => new NaiveStrategy(options),
};

/**
 * The model profile per window: its output limit, which Claude Code's and opencode's thresholds subtract. 200k is
 * a Claude Sonnet as those tools configure it (32,000 output tokens: Claude Code's default cap, opencode's
 * OUTPUT_TOKEN_MAX); 64k is a model with a 64k window and an 8,192-token output limit.
 */
export function maxOutputTokensFor(window: number): number {
  return window >= 200_000 ? 32_000 : 8_192;
}

export interface WorkloadResult {
  label: string;
  /** File-name friendly label (the plot's name). */
  slug: string;
  window: number;
  maxOutputTokens: number;
  conversations: number;
  userTurns: number;
  byStrategy: Record<StrategyName, ReplayMetrics>;
}

export interface ReplayResult {
  dataDir: string;
  sessions: number;
  steps: number;
  droppedNags: number;
  systemTokens: number;
  /** Tokens of recording-harness instructions removed from the tasks, per session on average. */
  removedInstructionTokens: number;
  pricedModel: string;
  workloads: WorkloadResult[];
}

interface Workload {
  label: string;
  slug: string;
  window: number;
  conversations: ReplayTask[][];
}

function workloadsOf(tasks: readonly ReplayTask[]): Workload[] {
  const days = toDays(tasks, TASKS_PER_DAY);
  const interactiveDays = toDays(
    tasks.map((task) => toInteractive(task)),
    TASKS_PER_DAY,
  );
  const revisitDays = toRevisitDays(tasks, TASKS_PER_DAY);
  return [
    { label: 'Each session alone', slug: 'alone-200k', window: 200_000, conversations: tasks.map((task) => [task]) },
    { label: `Long days (${TASKS_PER_DAY} tasks per day)`, slug: 'days-200k', window: 200_000, conversations: days },
    { label: `Long days (${TASKS_PER_DAY} tasks per day)`, slug: 'days-64k', window: 64_000, conversations: days },
    ...[200_000, 64_000].map((window) => ({
      label: `Interactive long days (${TASKS_PER_DAY} tasks per day, follow-ups)`,
      slug: `interactive-days-${window / 1000}k`,
      window,
      conversations: interactiveDays,
    })),
    ...[200_000, 64_000].map((window) => ({
      label: `Revisit days (${TASKS_PER_DAY} tasks per day, each task revisited ${REVISIT_GAP} tasks later)`,
      slug: `revisit-days-${window / 1000}k`,
      window,
      conversations: revisitDays,
    })),
  ];
}

export async function runReplayBench(options: {
  dataDir: string;
  systemText: string;
  maxSessions?: number;
  log?: (line: string) => void;
}): Promise<ReplayResult> {
  const sessions = loadSessions(options.dataDir).slice(0, options.maxSessions);
  if (sessions.length === 0) throw new Error(`no *.jsonl recordings in ${options.dataDir}`);
  const tasks = sessions.map(toReplayTask);
  const results: WorkloadResult[] = [];
  for (const workload of workloadsOf(tasks)) {
    const maxOutputTokens = maxOutputTokensFor(workload.window);
    const strategyOptions = { contextWindow: workload.window, systemText: options.systemText, maxOutputTokens };
    const byStrategy = {} as Record<StrategyName, ReplayMetrics>;
    for (const [name, create] of Object.entries(STRATEGIES) as Array<[StrategyName, typeof STRATEGIES.mca]>) {
      options.log?.(`  ${workload.slug}: ${name}`);
      byStrategy[name] = await replay(workload.conversations, () => create(strategyOptions), workload.window);
    }
    results.push({
      label: workload.label,
      slug: workload.slug,
      window: workload.window,
      maxOutputTokens,
      conversations: workload.conversations.length,
      userTurns: workload.conversations.flat().reduce((sum, task) => sum + task.turns.length, 0),
      byStrategy,
    });
  }
  const recordedChars = sessions.reduce((sum, session) => sum + session.task.length, 0);
  const personChars = tasks.reduce((sum, task) => sum + task.task.length, 0);
  return {
    dataDir: options.dataDir,
    sessions: sessions.length,
    steps: tasks.reduce((sum, task) => sum + task.turns.reduce((steps, turn) => steps + turn.steps.length, 0), 0),
    droppedNags: sessions.reduce((sum, session) => sum + session.droppedUserEvents, 0),
    systemTokens: Math.floor(options.systemText.length / 3),
    removedInstructionTokens: Math.floor((recordedChars - personChars) / 3 / sessions.length),
    pricedModel: PRICED_MODEL,
    workloads: results,
  };
}

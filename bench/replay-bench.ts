/**
 * Context replay: every recorded session through naive, full-then-compact and mca, as sessions alone (200k)
 * and as long days of 15 tasks (200k and 64k windows).
 */
import { ChatBaseline } from './replay/chat-baseline.js';
import { replay, toDays, type ReplayMetrics } from './replay/driver.js';
import { McaStrategy, WHAT_IF_READ_LINES } from './replay/mca-strategy.js';
import { toReplayTask } from './replay/replay-task.js';
import type { ReplayTask, StrategyName } from './replay/strategy.js';
import { loadSessions } from './replay/trajectory.js';

export const TASKS_PER_DAY = 15;
export const STRATEGIES: readonly StrategyName[] = ['naive', 'full-then-compact', 'mca', 'mca-read100'];

export interface WorkloadResult {
  label: string;
  window: number;
  conversations: number;
  byStrategy: Record<StrategyName, ReplayMetrics>;
}

export interface ReplayResult {
  sessions: number;
  steps: number;
  droppedNags: number;
  systemTokens: number;
  workloads: WorkloadResult[];
}

export async function runReplayBench(options: {
  dataDir: string;
  systemText: string;
  maxSessions?: number;
}): Promise<ReplayResult> {
  const sessions = loadSessions(options.dataDir).slice(0, options.maxSessions);
  const tasks: ReplayTask[] = sessions.map(toReplayTask);
  const workloads: Array<{ label: string; window: number; conversations: ReplayTask[][] }> = [
    { label: 'Each session alone', window: 200_000, conversations: tasks.map((task) => [task]) },
    {
      label: `Long days (${TASKS_PER_DAY} tasks per day)`,
      window: 200_000,
      conversations: toDays(tasks, TASKS_PER_DAY),
    },
    {
      label: `Long days (${TASKS_PER_DAY} tasks per day)`,
      window: 64_000,
      conversations: toDays(tasks, TASKS_PER_DAY),
    },
  ];
  const results: WorkloadResult[] = [];
  for (const workload of workloads) {
    const options2 = { contextWindow: workload.window, systemText: options.systemText };
    const byStrategy = {} as Record<StrategyName, ReplayMetrics>;
    for (const name of STRATEGIES) {
      byStrategy[name] = await replay(
        workload.conversations,
        () =>
          name === 'mca'
            ? new McaStrategy(options2)
            : name === 'mca-read100'
              ? new McaStrategy(options2, WHAT_IF_READ_LINES)
              : new ChatBaseline(name, options2),
        workload.window,
      );
    }
    results.push({
      label: workload.label,
      window: workload.window,
      conversations: workload.conversations.length,
      byStrategy,
    });
  }
  return {
    sessions: sessions.length,
    steps: tasks.reduce((sum, task) => sum + task.steps.length, 0),
    droppedNags: sessions.reduce((sum, session) => sum + session.droppedUserEvents, 0),
    systemTokens: Math.floor(options.systemText.length / 3),
    workloads: results,
  };
}

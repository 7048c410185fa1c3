/**
 * What an unattended run (`-p`, a headless host) adds around its session driver: `--max-budget-usd` (a CostBudget
 * counting the driver's usage, installed as the session's step guard) and `--no-session-persistence` (the session
 * file and its checkpoints are removed once the run closed them; a run killed before that leaves them).
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { isAgentEvent, type DriverEvent } from '../driver/driver-events.js';
import { checkpointDir } from '../checkpoints/limits.js';
import type { ClaudeCodeSessionInfo } from '../sinks/claude-code-sink.js';
import type * as CostBudgetModule from '../claude-code/cost-budget.js';
import type { Runtime } from '../runtime/create-runtime.js';
import type { ClaudeCodeOptions } from './claude-code-flags.js';

/** The budget's code (and its price table), loaded only when a budget was given; for installBudget. */
export async function loadBudgetCode(
  flags: Pick<ClaudeCodeOptions, 'maxBudgetUsd'>,
): Promise<typeof CostBudgetModule | undefined> {
  return flags.maxBudgetUsd === undefined ? undefined : await import('../claude-code/cost-budget.js');
}

/**
 * Installs the budget when one was given (`code` from loadBudgetCode, loaded before the session opens so nothing
 * runs before the guard is in place); `subscribe` feeds it the driver's events.
 */
export function installBudget(
  runtime: Runtime,
  flags: Pick<ClaudeCodeOptions, 'maxBudgetUsd'>,
  info: ClaudeCodeSessionInfo,
  subscribe: (listener: (event: DriverEvent) => void) => void,
  code: typeof CostBudgetModule | undefined,
): void {
  if (flags.maxBudgetUsd === undefined || code === undefined) return;
  const budget = new code.CostBudget(flags.maxBudgetUsd, info.model, info.limits, info.prices);
  runtime.sessions.settings.stepGuard = budget.guard;
  subscribe((event) => {
    if (isAgentEvent(event)) budget.note(event);
  });
}

/** `--no-session-persistence`: removes what the run wrote for `sessionId` (call after the session was closed). */
export function forgetSession(
  runtime: Runtime,
  flags: Pick<ClaudeCodeOptions, 'sessionPersistence'>,
  id: string,
): void {
  if (flags.sessionPersistence) return;
  const file = runtime.transcriptPathOf(id);
  rmSync(file, { force: true });
  rmSync(checkpointDir(dirname(file), id), { recursive: true, force: true });
}

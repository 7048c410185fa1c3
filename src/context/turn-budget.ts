/**
 * Keeping one turn inside the budget (DESIGN.md degradation ladder, step 1, extended): when this turn's
 * scratchpad pushes the prompt past threshold × window, older steps first show their compressed result, then a
 * one-line result; the newest steps stay full. The rung only rises within a turn, so the cached prefix is not
 * rewritten back and forth. Shared by the agent loop and the replay benchmark.
 */
import type { BuildInput, BuiltContext, ContextBuilder, ScratchpadStep } from './context-builder.js';
import { shrinkToolMessage } from './tool-result-shrinker.js';

export interface InTurnRung {
  /** How many newest steps keep their full observation. */
  fullSteps: number;
  /** Older steps show a one-line result instead of the compressed JSON. */
  oneLine: boolean;
  /** What the user is told when the turn reaches this rung. */
  message: string;
}

export const IN_TURN_LADDER: readonly InTurnRung[] = [
  { fullSteps: Infinity, oneLine: false, message: '' },
  {
    fullSteps: 3,
    oneLine: false,
    message: 'This turn is large: older steps now show their compressed results (newest 3 stay full).',
  },
  {
    fullSteps: 3,
    oneLine: true,
    message: 'This turn is still too large: older steps now show one-line results (newest 3 stay full).',
  },
  { fullSteps: 1, oneLine: true, message: 'This turn is still too large: only the newest step keeps its full result.' },
];

function scratchpadAtRung(steps: readonly ScratchpadStep[], rung: InTurnRung): readonly ScratchpadStep[] {
  if (!rung.oneLine) return steps;
  const fullFrom = steps.length - rung.fullSteps;
  return steps.map((step, index) =>
    index < fullFrom && step.compressed !== undefined
      ? { ...step, compressed: shrinkToolMessage(step.compressed, step.tool ?? 'unknown') }
      : step,
  );
}

export interface BudgetedBuild {
  context: BuiltContext;
  /** The rung reached (pass it back as `startLevel` for the next step of the same turn). */
  level: number;
  /** One message per rung climbed during this build. */
  degraded: string[];
}

/** Builds at `startLevel` or the lowest higher rung that fits `limitTokens` (the top rung if none does). */
export function buildWithinBudget(
  builder: ContextBuilder,
  input: Omit<BuildInput, 'fullObservationSteps'>,
  limitTokens: number,
  startLevel = 0,
): BudgetedBuild {
  const buildAt = (level: number): BuiltContext => {
    const rung = IN_TURN_LADDER[level] ?? IN_TURN_LADDER[0]!;
    return builder.build({
      ...input,
      scratchpad: scratchpadAtRung(input.scratchpad, rung),
      ...(level > 0 ? { fullObservationSteps: rung.fullSteps } : {}),
    });
  };
  const degraded: string[] = [];
  let level = Math.min(Math.max(0, startLevel), IN_TURN_LADDER.length - 1);
  let context = buildAt(level);
  while (context.totalTokens > limitTokens && level < IN_TURN_LADDER.length - 1) {
    level += 1;
    degraded.push(IN_TURN_LADDER[level]?.message ?? '');
    context = buildAt(level);
  }
  return { context, level, degraded };
}

/**
 * Keeping one turn inside the budget (DESIGN.md degradation ladder, step 1, extended): when this turn's
 * scratchpad pushes the prompt past threshold × window, older steps first show their compressed result, then a
 * one-line result; the newest steps stay full. Shared by the agent loop and the replay benchmark.
 *
 * Cache contract: the rung only rises within a turn, and the steps shrunk at a rung are shrunk in a batch (all but
 * the newest `fullSteps`, at that moment) and stay so; later steps stay full until the prompt passes the limit
 * again, and only then does the next batch shrink. A window of "the newest N" that slid every step would change
 * the prompt at the step leaving it on every call, and the provider would write everything after it to the cache
 * again each time.
 */
import type { BuildInput, BuiltContext, ContextBuilder, ScratchpadStep } from './context-builder.js';
import { LOW_WATER } from './token-budget.js';
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

/** Where a turn stands on the ladder: the rung, and how many of its first steps are shrunk at that rung. */
export interface InTurnState {
  level: number;
  /** Steps with an index below this show the rung's shorter form; the others their full observation. */
  shrunkSteps: number;
}

export const FULL_TURN: InTurnState = { level: 0, shrunkSteps: 0 };

/**
 * A step's one-line form, made once per step: every build of a long turn shows all its shrunk steps again, and
 * parsing each one's JSON at every step made a step's time grow with the turn (issue 42).
 */
const oneLineSteps = new WeakMap<ScratchpadStep, ScratchpadStep>();

function oneLineStep(step: ScratchpadStep, compressed: string): ScratchpadStep {
  const known = oneLineSteps.get(step);
  if (known !== undefined) return known;
  // Not the full observation: a one-line step never shows it, and the turn holds it once (live-rounds.ts).
  const { assistant, tool, native, images, ref } = step;
  const shrunk: ScratchpadStep = { assistant, compressed: shrinkToolMessage(compressed, tool ?? 'unknown') };
  if (tool !== undefined) shrunk.tool = tool;
  if (native !== undefined) shrunk.native = native;
  if (images !== undefined) shrunk.images = images;
  if (ref !== undefined) shrunk.ref = ref;
  oneLineSteps.set(step, shrunk);
  return shrunk;
}

function scratchpadAtRung(
  steps: readonly ScratchpadStep[],
  rung: InTurnRung,
  shrunkSteps: number,
): readonly ScratchpadStep[] {
  if (!rung.oneLine) return steps;
  return steps.map((step, index) =>
    index < shrunkSteps && step.compressed !== undefined ? oneLineStep(step, step.compressed) : step,
  );
}

/** The state at `level` with every step but the rung's newest `fullSteps` shrunk (never fewer than before). */
export function shrinkBatch(state: InTurnState, level: number, stepCount: number): InTurnState {
  const rung = IN_TURN_LADDER[level] ?? IN_TURN_LADDER[0]!;
  const batch = rung.fullSteps === Infinity ? 0 : Math.max(0, stepCount - rung.fullSteps);
  return { level, shrunkSteps: Math.max(state.shrunkSteps, batch) };
}

/** The request as the turn's ladder state shows it (the steps shrunk at its rung). */
export function buildAtState(
  builder: ContextBuilder,
  input: Omit<BuildInput, 'fullObservationSteps'>,
  state: InTurnState,
): BuiltContext {
  const stepCount = input.scratchpad.length;
  const rung = IN_TURN_LADDER[state.level] ?? IN_TURN_LADDER[0]!;
  const shrunk = Math.min(state.shrunkSteps, stepCount);
  return builder.build({
    ...input,
    scratchpad: scratchpadAtRung(input.scratchpad, rung, shrunk),
    ...(state.level > 0 ? { fullObservationSteps: stepCount - shrunk } : {}),
  });
}

export interface BudgetedBuild {
  context: BuiltContext;
  /** Where the turn stands now (pass it back as `start` for the next step of the same turn). */
  state: InTurnState;
  /** One message per rung climbed during this build. */
  degraded: string[];
}

/**
 * Builds at `start`. Over `limitTokens`, it first shrinks the next batch at the same rung, then climbs the rungs
 * (each climb shrinking its batch) until the prompt is under LOW_WATER × the limit or the top rung is reached.
 */
export function buildWithinBudget(
  builder: ContextBuilder,
  input: Omit<BuildInput, 'fullObservationSteps'>,
  limitTokens: number,
  start: InTurnState = FULL_TURN,
): BudgetedBuild {
  const stepCount = input.scratchpad.length;
  const buildAt = (state: InTurnState): BuiltContext => buildAtState(builder, input, state);
  const degraded: string[] = [];
  const top = IN_TURN_LADDER.length - 1;
  let state: InTurnState = { level: Math.min(Math.max(0, start.level), top), shrunkSteps: start.shrunkSteps };
  let context = buildAt(state);
  if (context.totalTokens <= limitTokens) return { context, state, degraded };
  // Over the limit: shrink down to the low-water mark, so the next steps have room to stay full.
  const lowWater = Math.floor(limitTokens * LOW_WATER);
  if (state.level > 0) {
    const next = shrinkBatch(state, state.level, stepCount);
    // Another batch shrinks at the same rung: the prompt changes, and the user (and the engine's events) hear of it.
    if (next.shrunkSteps > state.shrunkSteps) degraded.push(IN_TURN_LADDER[state.level]?.message ?? '');
    state = next;
    context = buildAt(state);
  }
  while (context.totalTokens > lowWater && state.level < top) {
    state = shrinkBatch(state, state.level + 1, stepCount);
    degraded.push(IN_TURN_LADDER[state.level]?.message ?? '');
    context = buildAt(state);
  }
  return { context, state, degraded };
}

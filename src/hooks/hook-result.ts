/**
 * Several hooks' answers to one event, combined: for a permission (PreToolUse, PermissionRequest) deny beats ask
 * beats allow, as in Claude Code; for the other events one block is enough. Reasons of the hooks that decided are
 * kept, in settings order, one per line. Context and user-facing lines of every hook are kept.
 */
import type { HookEventName } from './hook-events.js';
import type { HookDecision, HookRunOutcome } from './hook-output.js';
import { shortCommand } from './hook-text.js';

export interface HookEventResult {
  /** How many hooks ran (after matching and de-duplication); 0 when none matched. */
  readonly ran: number;
  /** The combined decision, if any hook made one. */
  readonly decision?: HookDecision;
  /** Why: the deciders' reasons; for deny, ask and block never empty (a default names the hooks). */
  readonly reason?: string;
  /** The tool input to use instead, in mca's names (the engine maps it back); never with deny. */
  readonly updatedInput?: unknown;
  /** Text for the model's context, one entry per hook that gave some. */
  readonly context: readonly string[];
  /** Set when a hook answered `continue: false`: the agent stops after this event, the reason shown to the user. */
  readonly stop?: { readonly reason: string };
  /** Lines for the user: system messages, failures, timeouts, hostile output. */
  readonly messages: readonly string[];
  readonly outcomes: readonly HookRunOutcome[];
}

export const NO_HOOKS: HookEventResult = { ran: 0, context: [], messages: [], outcomes: [] };

const RANK: Readonly<Record<HookDecision, number>> = { block: 4, deny: 3, ask: 2, allow: 1 };

function defaultReason(event: HookEventName, decision: HookDecision, deciders: readonly HookRunOutcome[]): string {
  const names = deciders.map((outcome) => shortCommand(outcome.hook.command)).join(', ');
  const verb = decision === 'ask' ? 'asks for confirmation' : 'blocked it';
  return `${event} hook ${names} ${verb}`;
}

export function combineOutcomes(
  event: HookEventName,
  outcomes: readonly HookRunOutcome[],
  mapInput: (input: Record<string, unknown>) => unknown,
): HookEventResult {
  let decision: HookDecision | undefined;
  for (const outcome of outcomes) {
    if (outcome.decision && (!decision || RANK[outcome.decision] > RANK[decision])) decision = outcome.decision;
  }
  const deciders = outcomes.filter((outcome) => decision !== undefined && outcome.decision === decision);
  const reasons = deciders.flatMap((outcome) => (outcome.reason ? [outcome.reason] : []));
  const messages: string[] = [];
  const context: string[] = [];
  let stop: { reason: string } | undefined;
  let updated: HookRunOutcome | undefined;
  for (const outcome of outcomes) {
    messages.push(...outcome.notices);
    if (outcome.systemMessage) messages.push(outcome.systemMessage);
    if (outcome.context) context.push(outcome.context);
    if (outcome.stop !== undefined && !stop) stop = { reason: outcome.stop };
    const eligible = outcome.decision === undefined || outcome.decision === decision;
    if (outcome.updatedInput && eligible) {
      if (!updated) updated = outcome;
      else {
        messages.push(
          `several ${event} hooks changed the tool input; the one from ${shortCommand(updated.hook.command)} was used`,
        );
      }
    }
  }
  const result: {
    -readonly [Key in keyof HookEventResult]: HookEventResult[Key];
  } = { ran: outcomes.length, context, messages, outcomes };
  if (decision) {
    result.decision = decision;
    if (reasons.length > 0) result.reason = reasons.join('\n');
    else if (decision !== 'allow') result.reason = defaultReason(event, decision, deciders);
  }
  if (updated?.updatedInput && decision !== 'deny' && decision !== 'block') {
    result.updatedInput = mapInput(updated.updatedInput);
  }
  if (stop) result.stop = stop;
  return result;
}

/**
 * The workloads a person produces (BENCHMARKS.md "Workloads"): each session alone, long days of sessions as
 * rounds of one conversation, and interactive sessions where the person answers every few steps with a short
 * follow-up, so one task spans several user turns.
 */
import type { ReplayTask, ReplayTurn } from './strategy.js';

/** Steps the model takes before the person types the next follow-up in the interactive workload. */
export const STEPS_PER_INTERACTIVE_TURN = 5;

/** The follow-ups, used in this order and then again; short texts a person types between steps. */
export const FOLLOW_UPS: readonly string[] = ['go on', 'now run the tests', 'ok, continue with the fix', 'keep going'];

/** Sessions in file-name order, grouped into days of `perDay` tasks (the last day may be shorter). */
export function toDays<T>(tasks: readonly T[], perDay: number): T[][] {
  const days: T[][] = [];
  for (let index = 0; index < tasks.length; index += perDay) days.push(tasks.slice(index, index + perDay));
  return days;
}

/**
 * Splits each user turn into several: the first keeps the turn's text and its first `every` steps; each further
 * group of `every` steps starts with the next follow-up. The steps, their order and their outputs are unchanged;
 * a turn of `every` steps or fewer stays one turn.
 */
export function toInteractive(task: ReplayTask, every = STEPS_PER_INTERACTIVE_TURN): ReplayTask {
  const turns: ReplayTurn[] = [];
  let followUp = 0;
  for (const turn of task.turns) {
    for (let start = 0; start < turn.steps.length; start += every) {
      const text = start === 0 ? turn.text : (FOLLOW_UPS[followUp++ % FOLLOW_UPS.length] ?? 'go on');
      turns.push({ text, steps: turn.steps.slice(start, start + every) });
    }
    if (turn.steps.length === 0) turns.push(turn);
  }
  return { ...task, turns };
}

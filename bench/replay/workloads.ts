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

/** Tasks between a task and the person's return to it in the revisit workload. */
export const REVISIT_GAP = 5;
/** At most this many recorded steps are replayed again on a return. */
export const REVISIT_STEPS = 4;

/** The file a task worked on most: the most edited path, else the most read one; undefined when it touched none. */
function focusPath(task: ReplayTask): string | undefined {
  const counts = new Map<string, number>();
  for (const step of task.turns.flatMap((turn) => turn.steps)) {
    const action = step.action;
    const path = action?.input.path;
    if (typeof path !== 'string' || (action?.tool !== 'Edit' && action?.tool !== 'Read')) continue;
    counts.set(path, (counts.get(path) ?? 0) + (action.tool === 'Edit' ? 100 : 1));
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * A return to `earlier`: the person asks to look at that task's work again; the model re-reads and re-edits its
 * main file as it did then (copies of that task's recorded Read and Edit steps on the file, at most REVISIT_STEPS,
 * the newest ones, with their recorded results), then answers. Undefined when the task touched no file.
 */
export function revisitOf(earlier: ReplayTask): ReplayTask | undefined {
  const path = focusPath(earlier);
  if (path === undefined) return undefined;
  const steps = earlier.turns
    .flatMap((turn) => turn.steps)
    .filter((step) => step.action !== undefined && step.action.input.path === path)
    .slice(-REVISIT_STEPS)
    .map((step) => ({ ...step }));
  const first = earlier.task.split('\n').find((line) => line.trim() !== '') ?? earlier.name;
  const text = `Back to an earlier task ("${first.trim().slice(0, 100)}"): look at that change again and check it.`;
  return {
    name: `${earlier.name} (revisit)`,
    task: text,
    turns: [{ text, steps: [...steps, { thought: '', answer: 'Checked the earlier change again; it is in place.' }] }],
  };
}

/**
 * Revisit days (the workload where memory across rounds matters): each day of `perDay` tasks, in order, and after
 * every task from the (REVISIT_GAP + 1)th on, a return to the task REVISIT_GAP before it (revisitOf). Generated
 * from the recordings; no recorded step or result is changed, the returns only replay some of them again.
 */
export function toRevisitDays(tasks: readonly ReplayTask[], perDay: number): ReplayTask[][] {
  return toDays(tasks, perDay).map((day) =>
    day.flatMap((task, index) => {
      const earlier = index >= REVISIT_GAP ? day[index - REVISIT_GAP] : undefined;
      const revisit = earlier === undefined ? undefined : revisitOf(earlier);
      return revisit === undefined ? [task] : [task, revisit];
    }),
  );
}

/** Turns a recorded session into the steps every strategy replays (same fixed actions and outputs for all). */
import { mapCall } from './action-map.js';
import { commandOf } from './classify.js';
import type { ReplayStep, ReplayTask } from './strategy.js';
import { personTaskText } from './task-text.js';
import type { RecordedSession } from './trajectory.js';

/**
 * - The task is the recorded first user message without the harness's instructions (task-text.ts); it is the
 *   only user turn.
 * - A call with a recorded result becomes an action with that result.
 * - The last step, when it has no result (submit) or no call (a final text), is the final answer.
 * - A call without a result before the end is replayed with an empty result; a text without a call before
 *   the end is merged into the next step's thought (the model call that produced it was not recorded).
 */
export function toReplayTask(session: RecordedSession): ReplayTask {
  const steps: ReplayStep[] = [];
  let carried = '';
  session.steps.forEach((recorded, index) => {
    const last = index === session.steps.length - 1;
    const thought = carried === '' ? recorded.text : `${carried}\n${recorded.text}`;
    carried = '';
    const call = recorded.call;
    if (call === undefined) {
      if (last) steps.push({ thought: '', answer: thought });
      else carried = thought;
      return;
    }
    const recordedCall = `${call.tool} ${JSON.stringify(call.input)}`;
    if (call.output === undefined && last) {
      steps.push({ thought, answer: commandOf(call), recordedCall, call });
      return;
    }
    steps.push({ thought, action: mapCall({ ...call, output: call.output ?? '' }), recordedCall, call });
  });
  const task = personTaskText(session.task);
  return { name: session.name, task, turns: [{ text: task, steps }] };
}

/**
 * Background tasks in `-p --output-format stream-json`, against Claude Code's own lines for the same scenario
 * (test/fixtures/claude-code-stream/background-task.json, captured from its 2.1.332 binary with
 * test/helpers/capture-background-tasks.ts): a task that completes and one TaskStop stops give the same task lines in
 * the same order (background_tasks_changed before task_started; task_updated, task_notification, then
 * background_tasks_changed at the end), each with Claude Code's keys and types, and the same notification summaries.
 * On the old tree mca sent neither task_updated nor background_tasks_changed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBackgroundScenario, taskSequence, TASK_A } from '../helpers/capture-background-tasks.js';
import { MCA_BIN } from '../helpers/run-mca.js';
import { shapesOf, type Shape } from '../helpers/stream-shapes.js';

interface Golden {
  sequence: string[];
  shapes: Record<string, Shape>;
  patch: Shape;
  entry: Shape;
  summaries: string[];
}

const golden = JSON.parse(
  readFileSync(new URL('../fixtures/claude-code-stream/background-task.json', import.meta.url), 'utf8'),
) as Golden;

describe("background task lines as Claude Code's", () => {
  it('started, stopped and completed tasks: same lines, order, shapes and summaries', async () => {
    const run = await runBackgroundScenario({
      command: process.execPath,
      args: [MCA_BIN],
      // mca's TaskOutput waits for the end (Claude Code 2.1.332 has no such tool: its capture waits in a Bash).
      waitForA: (taskId) => ({ name: 'TaskOutput', input: { task_id: taskId, block: true, timeout: 60_000 } }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(taskSequence(run.lines)).toEqual(golden.sequence);
    const shapes = shapesOf(run.lines);
    for (const kind of Object.keys(golden.shapes)) expect(shapes[kind], kind).toEqual(golden.shapes[kind]);
    const of = (subtype: string) => run.lines.filter((line) => line.subtype === subtype);
    expect(shapesOf(of('task_updated').map((line) => line.patch as Record<string, unknown>)).undefined).toEqual(
      golden.patch,
    );
    const entries = of('background_tasks_changed').flatMap((line) => line.tasks as Array<Record<string, unknown>>);
    expect(shapesOf(entries).undefined).toEqual(golden.entry);
    const summaries = of('task_notification').map((line) => String(line.summary).replace(/"[^"]*"/, '"<command>"'));
    expect(summaries).toEqual(golden.summaries);
    // One run id per task, on every line that names it.
    const started = of('task_started');
    for (const line of run.lines.filter((each) => each.task_id === started[0]?.task_id))
      expect(line.run_id).toBe(started[0]?.run_id);
    expect(started[0]).toMatchObject({ description: TASK_A, is_backgrounded: true, tool_use_id: 'toolu_bg_a' });
  }, 60_000);
});

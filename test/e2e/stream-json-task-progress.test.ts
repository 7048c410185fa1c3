/**
 * `system`/`task_progress` lines for a background shell in stream-json, through the built binary (issue 39): the
 * task's first output gives a progress line at once, between its task_started and its task_notification, with the
 * keys and types of the Agent SDK's SDKTaskProgressMessage (test/fixtures/claude-code-stream/task-progress.json) and
 * the output's last line as `summary`. On the old tree no task_progress line came.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { parseLines, shapesOf, type Shape } from '../helpers/stream-shapes.js';
import { tempProject } from '../helpers/temp-project.js';

interface Golden {
  shapes: Record<string, Shape>;
  usage: Shape;
}

const golden = JSON.parse(
  readFileSync(new URL('../fixtures/claude-code-stream/task-progress.json', import.meta.url), 'utf8'),
) as Golden;

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('task_progress in stream-json', () => {
  it("a background shell's output gives task_progress lines in the SDK's shape, between started and ended", async () => {
    const { root, home } = tempProject('mca-bg-progress-', { 'README.md': 'x\n' });
    expect(home).toMatch(/^[\w/.-]+$/);
    // Writes a line, then waits for `go` (made by the next, foreground call): the first line is out before the end.
    const background = 'echo step-one-of-two; until [ -f go ]; do sleep 0.05; done; echo step-two-of-two';
    server = await startFakeAnthropic([
      {
        text: 'Start it.',
        calls: [{ id: 'toolu_bg_p', name: 'Bash', input: { command: background, run_in_background: true } }],
      },
      // Waits until mca has written the first line to the task's output file under MCA_HOME (state, not time: the
      // progress event goes out as mca takes the output in), then lets the task end and reads it to its end.
      {
        text: 'Let it finish.',
        calls: [
          { name: 'Bash', input: { command: `until grep -rqs step-one ${home}; do sleep 0.05; done; touch go` } },
        ],
      },
      { text: 'Read it.', calls: [{ name: 'TaskOutput', input: { task_id: 'bash_1', block: true, timeout: 60000 } }] },
      { text: 'Done.' },
    ]);
    const run = await runMca(
      ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions'],
      { cwd: root, env: { ANTHROPIC_API_KEY: 'sk-ant-test-progress', ANTHROPIC_BASE_URL: server.url, MCA_HOME: home } },
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = parseLines(run.stdout);
    const subtypes = lines.map((line) => line.subtype).filter((subtype) => String(subtype).startsWith('task_'));
    expect(subtypes[0]).toBe('task_started');
    expect(subtypes.at(-1)).toBe('task_notification');
    const progress = lines.filter((line) => line.subtype === 'task_progress');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toMatchObject({
      type: 'system',
      task_id: 'bash_1',
      tool_use_id: 'toolu_bg_p',
      description: background,
      summary: 'step-one-of-two',
      usage: { total_tokens: 0, tool_uses: 0 },
    });
    expect(shapesOf(progress)['system/task_progress']).toEqual(golden.shapes['system/task_progress']);
    expect(shapesOf(progress.map((line) => line.usage as Record<string, unknown>)).undefined).toEqual(golden.usage);
  });
});

/**
 * A host that sends `initialize` again (it reconnected to a running session) gets the live background tasks in a
 * `system`/`background_tasks_changed` line right behind the answer, as the Agent SDK's
 * SDKBackgroundTasksChangedMessage promises, through the built binary in stream-json input mode. The first
 * initialize gets none (the level starts empty). On the old tree no such line came.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { MCA_BIN } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { processesGone } from './support/processes.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('initialize again', () => {
  it('is answered, then the live background tasks follow', async () => {
    const marker = `mca-reinit-${process.pid}-${Date.now()}`;
    const command = `sleep 297; true ${marker}`;
    server = await startFakeAnthropic([
      { text: 'Starting.', calls: [{ id: 'toolu_bg', name: 'Bash', input: { command, run_in_background: true } }] },
      { text: 'Started.' },
    ]);
    const { root, home } = tempProject('mca-reinit-', {});
    const child = spawn(
      process.execPath,
      [
        MCA_BIN,
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        'bypassPermissions',
      ],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          MCA_HOME: home,
          ANTHROPIC_API_KEY: 'sk-ant-test-reinit',
          ANTHROPIC_BASE_URL: server.url,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const send = (message: object): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    const lines: Array<Record<string, unknown>> = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let at: number;
      while ((at = buffer.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffer.slice(0, at)) as Record<string, unknown>;
        buffer = buffer.slice(at + 1);
        lines.push(line);
        if (line.type === 'result')
          send({ type: 'control_request', request_id: 'init-2', request: { subtype: 'initialize' } });
        const response = line.response as { request_id?: string } | undefined;
        if (line.type === 'control_response' && response?.request_id === 'init-2')
          setImmediate(() => child.stdin.end());
      }
    });
    send({ type: 'control_request', request_id: 'init-1', request: { subtype: 'initialize' } });
    send({ type: 'user', message: { role: 'user', content: 'start it' }, parent_tool_use_id: null, session_id: '' });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const answerAt = (id: string) =>
      lines.findIndex(
        (line) => line.type === 'control_response' && (line.response as { request_id?: string }).request_id === id,
      );
    // The first initialize: no snapshot behind it.
    expect(lines[answerAt('init-1') + 1]?.subtype).not.toBe('background_tasks_changed');
    const started = lines.find((line) => line.subtype === 'task_started');
    expect(lines[answerAt('init-2') + 1]).toMatchObject({
      type: 'system',
      subtype: 'background_tasks_changed',
      tasks: [{ task_id: started?.task_id, run_id: started?.run_id, task_type: 'local_bash', description: command }],
    });
    expect(await processesGone(marker, root)).toEqual([]);
  }, 60_000);
});

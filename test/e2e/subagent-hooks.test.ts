/**
 * Hooks around subagents through the built binary, with real `sh` hook scripts in the user's settings (they run in
 * every project, trusted or not) and the routed loopback fake: SubagentStop with Claude Code's stdin fields and its
 * block, PreToolUse/PostToolUse for a subagent's own calls, and the Agent tool called by its older name `Task`.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { ask, type Dirs, requestText, routedFake, type Routed, systemText, userText } from './support/subagent-fake.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A project with `notes.txt`, and the user's hooks (scripts under `$MCA_HOME/hooks/`) in `$MCA_HOME/settings.json`. */
function setup(scripts: Record<string, string>, hooks: Record<string, unknown>): Dirs {
  const dirs = tempProject('mca-subagent-hooks-', { 'notes.txt': 'NOTES-LINE-ONE\n' });
  const userHome = join(dirname(dirs.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  mkdirSync(join(dirs.home, 'hooks'), { recursive: true });
  for (const [name, body] of Object.entries(scripts)) {
    const path = join(dirs.home, 'hooks', name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
  }
  writeFileSync(join(dirs.home, 'settings.json'), JSON.stringify({ hooks }));
  return { ...dirs, userHome };
}

function group(dirs: Dirs, script: string, matcher?: string): unknown {
  return {
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: 'command', command: `${join(dirs.home, 'hooks', script)}` }],
  };
}

function jsonLines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const isExplore = (body: Parameters<typeof systemText>[0]) => systemText(body).includes('You are Explore');

/** The parent delegates once (under `name`), then answers with what it got. */
function parentRoute(name: string, id: string) {
  return {
    name: 'parent',
    match: () => true,
    reply: (index: number) =>
      index === 0
        ? {
            text: '',
            calls: [{ id, name, input: { subagent_type: 'Explore', description: 'look', prompt: 'Read notes.txt' } }],
          }
        : { text: 'parent done' },
  };
}

describe('hooks around subagents', () => {
  it('SubagentStop gets Claude Code fields; exit 2 makes the subagent go on once with the reason', async () => {
    const dirs: Dirs = setup(
      {
        // Logs its stdin; blocks the first stop only (as Claude Code's docs advise, it reads stop_hook_active).
        'subagent-stop.sh': [
          'input=$(cat)',
          `printf '%s\\n' "$input" >> "$MCA_HOME/subagent-stop.log"`,
          `if printf '%s' "$input" | grep -q '"stop_hook_active":false'; then echo 'RUN-THE-TESTS-FIRST' >&2; exit 2; fi`,
          'exit 0',
        ].join('\n'),
        'stop.sh': `cat >> "$MCA_HOME/stop.log"`,
      },
      {},
    );
    writeFileSync(
      join(dirs.home, 'settings.json'),
      JSON.stringify({
        hooks: {
          SubagentStop: [group(dirs, 'subagent-stop.sh', 'Explore'), group(dirs, 'stop.sh', 'some-other-agent')],
          Stop: [group(dirs, 'stop.sh')],
        },
      }),
    );
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'explore',
          match: isExplore,
          reply: (index) => ({ text: index === 0 ? 'FIRST-ANSWER' : 'SECOND-ANSWER' }),
        },
        parentRoute('Agent', 'toolu_sub_stop'),
      ],
      log,
    );
    const run = await ask(dirs, server, 'delegate');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('parent done');
    expect(log.map((entry) => entry.route)).toEqual(['parent', 'explore', 'explore', 'parent']);
    // The block's reason is what the subagent's next request carries; the parent gets the second answer.
    const exploreSecond = log[2]!.body;
    expect(userText(exploreSecond)).toContain('RUN-THE-TESTS-FIRST');
    expect(requestText(log[3]!.body)).toContain('SECOND-ANSWER');
    const stops = jsonLines(join(dirs.home, 'subagent-stop.log'));
    expect(stops).toHaveLength(2);
    expect(stops[0]).toMatchObject({
      hook_event_name: 'SubagentStop',
      stop_hook_active: false,
      last_assistant_message: 'FIRST-ANSWER',
      agent_id: 'toolu_sub_stop',
      agent_type: 'Explore',
      cwd: dirs.root,
    });
    expect(String(stops[0]!.agent_transcript_path)).toMatch(/\.agents\/toolu_sub_stop\.jsonl$/);
    expect(readFileSync(String(stops[0]!.agent_transcript_path), 'utf8')).toContain('FIRST-ANSWER');
    expect(typeof stops[0]!.session_id).toBe('string');
    expect(stops[1]).toMatchObject({ stop_hook_active: true, last_assistant_message: 'SECOND-ANSWER' });
    // The other agent type's matcher did not select it; the session's own Stop fired once, for the parent.
    const parentStops = jsonLines(join(dirs.home, 'stop.log'));
    expect(parentStops.map((entry) => entry.hook_event_name)).toEqual(['Stop']);
    expect(parentStops[0]).toMatchObject({ last_assistant_message: 'parent done' });
  });

  it("a Task call runs the Agent tool; Task and Agent matchers both select it; a subagent's calls run Pre/PostToolUse", async () => {
    const dirs = setup(
      {
        'task-pre.sh': `cat >> "$MCA_HOME/task-pre.log"`,
        'agent-pre.sh': `cat >> "$MCA_HOME/agent-pre.log"; echo >> "$MCA_HOME/agent-pre.log"`,
        'read-pre.sh': `cat >> "$MCA_HOME/read-pre.log"; echo >> "$MCA_HOME/read-pre.log"`,
        'read-post.sh': [
          `cat >> "$MCA_HOME/read-post.log"; echo >> "$MCA_HOME/read-post.log"`,
          `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"POST-READ-SEEN"}}'`,
        ].join('\n'),
      },
      {},
    );
    writeFileSync(
      join(dirs.home, 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            group(dirs, 'task-pre.sh', 'Task'),
            group(dirs, 'agent-pre.sh', 'Agent'),
            group(dirs, 'read-pre.sh', 'Read'),
          ],
          PostToolUse: [group(dirs, 'read-post.sh', 'Read')],
        },
      }),
    );
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'explore',
          match: isExplore,
          reply: (index) =>
            index === 0
              ? { text: '', calls: [{ id: 'toolu_sub_read', name: 'Read', input: { path: 'notes.txt' } }] }
              : { text: 'EXPLORE-ANSWER' },
        },
        parentRoute('Task', 'toolu_task_call'),
      ],
      log,
    );
    const run = await ask(dirs, server, 'delegate');
    expect(run.code).toBe(0);
    expect(log.map((entry) => entry.route)).toEqual(['parent', 'explore', 'explore', 'parent']);
    // The Task call ran the Agent tool: the subagent answered and the parent reads its answer.
    expect(requestText(log[3]!.body)).toContain('EXPLORE-ANSWER');
    // Both matchers selected the call; the hooks read it under the tool's name, Agent.
    for (const file of ['task-pre.log', 'agent-pre.log']) {
      const [entry] = jsonLines(join(dirs.home, file));
      expect(entry).toMatchObject({
        hook_event_name: 'PreToolUse',
        tool_name: 'Agent',
        tool_use_id: 'toolu_task_call',
        tool_input: { subagent_type: 'Explore', description: 'look', prompt: 'Read notes.txt' },
      });
    }
    // The subagent's own Read passed PreToolUse and PostToolUse, in Claude Code's names; PostToolUse's context
    // reached the subagent with the result (not the parent).
    const [pre] = jsonLines(join(dirs.home, 'read-pre.log'));
    expect(pre).toMatchObject({ tool_name: 'Read', tool_use_id: 'toolu_sub_read' });
    expect((pre!.tool_input as { file_path: string }).file_path).toBe(join(dirs.root, 'notes.txt'));
    const [post] = jsonLines(join(dirs.home, 'read-post.log'));
    expect(post).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_use_id: 'toolu_sub_read' });
    expect(requestText(log[2]!.body)).toContain('POST-READ-SEEN');
    expect(requestText(log[3]!.body)).not.toContain('POST-READ-SEEN');
  });

  it('permission rules written for Agent deny a call named Task, and rules written for Task deny an Agent call', async () => {
    for (const [rule, called] of [
      ['Agent(Explore)', 'Task'],
      ['Task(Explore)', 'Agent'],
    ] as const) {
      const dirs = setup({}, {});
      const log: Routed[] = [];
      server = await routedFake(
        [
          { name: 'explore', match: isExplore, reply: () => ({ text: 'should not run' }) },
          parentRoute(called, 'toolu_x'),
        ],
        log,
      );
      const run = await ask(dirs, server, 'delegate', ['--disallowedTools', rule]);
      expect(run.code).toBe(0);
      expect(log.map((entry) => entry.route)).toEqual(['parent', 'parent']);
      expect(requestText(log[1]!.body)).toContain('PERMISSION_DENIED');
      await server.close();
      server = undefined;
    }
  });
});

/**
 * Subagents in process, through createRuntime and a SessionDriver against the loopback fake: the facts ledger of
 * the parent's history names which subagent found what, and the subagent event bus (what stream-json's
 * `parent_tool_use_id` messages and the SubagentStop hook subscribe to) reports the run under the Agent call's id.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { factsLedger } from '../../src/context/facts-ledger.js';
import type { SubagentEvent } from '../../src/subagents/subagent-events.js';
import { SessionDriver } from '../../src/driver/session-driver.js';
import { createRuntime, type Runtime } from '../../src/runtime/create-runtime.js';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { routedFake, systemText, userText, type Routed } from '../e2e/support/subagent-fake.js';

let runtime: Runtime | undefined;
let server: FakeAnthropic | undefined;
afterEach(async () => {
  runtime?.sessions.close();
  await server?.close();
  runtime = undefined;
  server = undefined;
  vi.unstubAllEnvs();
});

describe('subagents in the runtime', () => {
  it('the ledger names the subagent with the files it read; its events carry the Agent call id', async () => {
    const project = tempProject('mca-subagent-rt-', { 'notes.txt': 'alpha\n' });
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'explore',
          match: (body) => systemText(body).includes('You are Explore'),
          reply: (index) =>
            index === 0
              ? { text: '', calls: [{ id: 'toolu_x_read', name: 'Read', input: { path: 'notes.txt' } }] }
              : { text: 'notes.txt says alpha.' },
        },
        {
          name: 'parent',
          match: () => true,
          reply: (index) =>
            index === 0
              ? {
                  text: '',
                  calls: [
                    {
                      id: 'toolu_parent_agent',
                      name: 'Agent',
                      input: { subagent_type: 'Explore', description: 'look', prompt: 'What does notes.txt say?' },
                    },
                  ],
                }
              : { text: 'It says alpha.' },
        },
      ],
      log,
    );
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-subagent-rt-0123456789');
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url);
    vi.stubEnv('MCA_HOME', project.home);
    runtime = await createRuntime({ cwd: project.root, home: project.home });
    const events: SubagentEvent[] = [];
    runtime.extensions.events.on((event) => events.push(event));
    await new SessionDriver({ sessions: runtime.sessions, policy: runtime.policy }).run('what is in notes?');

    expect(log.map((entry) => entry.route)).toEqual(['parent', 'explore', 'explore', 'parent']);
    const ledger = factsLedger(runtime.sessions.current().history());
    expect(ledger).toContain('notes.txt (found by subagent Explore)');

    expect(events[0]).toMatchObject({
      type: 'subagent_start',
      parentToolUseId: 'toolu_parent_agent',
      agent: 'Explore',
    });
    const inner = events.filter((event) => event.type === 'subagent_event');
    expect(inner.length).toBeGreaterThan(0);
    expect(inner.every((event) => event.parentToolUseId === 'toolu_parent_agent')).toBe(true);
    expect(inner.some((event) => event.type === 'subagent_event' && event.event.type === 'tool_end')).toBe(true);
    expect(events.at(-1)).toMatchObject({
      type: 'subagent_stop',
      parentToolUseId: 'toolu_parent_agent',
      reason: 'answer',
      answer: 'notes.txt says alpha.',
    });
  });

  it("the trust question lists an untrusted project's subagents and skills, which stay off when declined", async () => {
    const project = tempProject('mca-subagent-trust-', {
      '.claude/agents/finder.md': '---\nname: finder\ndescription: finds\n---\nYou find.\n',
      '.claude/skills/notes/SKILL.md': '---\nname: notes\ndescription: notes\n---\nbody\n',
    });
    server = await routedFake([], []);
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-subagent-rt-0123456789');
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url);
    vi.stubEnv('MCA_HOME', project.home);
    let asked: readonly string[] = [];
    runtime = await createRuntime({
      cwd: project.root,
      home: project.home,
      askTrust: (_root, widening) => {
        asked = widening.map((item) => item.text);
        return Promise.resolve(false);
      },
    });
    expect(asked.some((line) => line.startsWith('subagent ') && line.endsWith('finder.md'))).toBe(true);
    expect(asked.some((line) => line.startsWith('skill ') && line.endsWith('notes'))).toBe(true);
    expect(runtime.extensions.agents.has('finder')).toBe(false);
    expect(runtime.extensions.skills.size).toBe(0);
  });

  it('a SubagentStop handler can make the subagent go on once, then it answers', async () => {
    const project = tempProject('mca-subagent-stop-', {});
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'explore',
          match: (body) => systemText(body).includes('You are Explore'),
          reply: (index) => ({ text: index === 0 ? 'first answer' : 'second answer' }),
        },
        {
          name: 'parent',
          match: () => true,
          reply: (index) =>
            index === 0
              ? {
                  text: '',
                  calls: [
                    {
                      id: 'toolu_stop',
                      name: 'Agent',
                      input: { subagent_type: 'Explore', description: 'd', prompt: 'p' },
                    },
                  ],
                }
              : { text: 'done' },
        },
      ],
      log,
    );
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-subagent-rt-0123456789');
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url);
    vi.stubEnv('MCA_HOME', project.home);
    runtime = await createRuntime({ cwd: project.root, home: project.home });
    const stops: Array<{ answer: string; stopHookActive: boolean; parentToolUseId: string }> = [];
    runtime.extensions.subagentStop.handler = (stop) => {
      stops.push(stop);
      return Promise.resolve(stop.stopHookActive ? {} : { continueWith: 'CHECK-AGAIN-PLEASE' });
    };
    await new SessionDriver({ sessions: runtime.sessions, policy: runtime.policy }).run('go');
    expect(stops).toEqual([
      expect.objectContaining({ answer: 'first answer', stopHookActive: false, parentToolUseId: 'toolu_stop' }),
      expect.objectContaining({ answer: 'second answer', stopHookActive: true }),
    ]);
    const explore = log.filter((entry) => entry.route === 'explore');
    expect(explore).toHaveLength(2);
    expect(userText(explore[1]!.body)).toContain('CHECK-AGAIN-PLEASE');
    const last = JSON.stringify(log.at(-1)!.body.messages);
    expect(last).toContain('second answer');
  });
});

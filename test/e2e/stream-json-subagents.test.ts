/**
 * Subagent traffic in Claude Code's stream-json (issue 29 item 5): while an Agent call runs, the subagent's replies
 * and tool results are `assistant`/`user` lines whose `parent_tool_use_id` is the Agent call's id; the session's own
 * lines keep `null`. Through `mca -p --output-format stream-json --verbose` and through the Agent SDK.
 */
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, sdkOptions, sdkQuery } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const AGENTS = JSON.stringify({
  finder: { description: 'Finds facts', prompt: 'You are FINDER. Read and report one fact.', tools: ['Read'] },
});

/** Parent delegates; the subagent reads a file and answers; the parent answers. Requests come in this order. */
const SCRIPT: FakeStep[] = [
  {
    text: 'Delegating.',
    calls: [
      {
        id: 'toolu_agent_p',
        name: 'Agent',
        input: { subagent_type: 'finder', description: 'find the code', prompt: 'Find the code in notes.txt.' },
      },
    ],
  },
  { text: 'Reading.', calls: [{ id: 'toolu_sub_read', name: 'Read', input: { path: 'notes.txt' } }] },
  { text: 'FOUND: the code is 7731.' },
  { text: 'The code is 7731.' },
];

interface Line {
  type: string;
  parent_tool_use_id?: string | null;
  message?: { content?: Array<{ type: string; id?: string; tool_use_id?: string; text?: string }> };
}

function blocks(line: Line): string[] {
  return (line.message?.content ?? []).map((block) =>
    block.type === 'tool_use'
      ? `tool_use:${block.id}`
      : block.type === 'tool_result'
        ? `tool_result:${block.tool_use_id}`
        : `${block.type}:${block.text ?? ''}`,
  );
}

function nesting(lines: Line[]): Array<[string | null | undefined, string[]]> {
  return lines
    .filter((line) => line.type === 'assistant' || line.type === 'user')
    .map((line) => [line.parent_tool_use_id, blocks(line)]);
}

const EXPECTED: Array<[string | null, string[]]> = [
  [null, ['text:Delegating.']],
  [null, ['tool_use:toolu_agent_p']],
  ['toolu_agent_p', ['text:Reading.']],
  ['toolu_agent_p', ['tool_use:toolu_sub_read']],
  ['toolu_agent_p', ['tool_result:toolu_sub_read']],
  ['toolu_agent_p', ['text:FOUND: the code is 7731.']],
  [null, ['tool_result:toolu_agent_p']],
  [null, ['text:The code is 7731.']],
];

describe('subagent lines in stream-json', () => {
  it('-p stream-json: the subagent lines carry the Agent call id as parent_tool_use_id', async () => {
    const { root, home } = tempProject('mca-sj-sub-', { 'notes.txt': 'code 7731\n' });
    server = await startFakeAnthropic(SCRIPT);
    const run = await runMca(
      ['-p', 'find the code', '--output-format', 'stream-json', '--verbose', '--agents', AGENTS],
      {
        cwd: root,
        env: {
          ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
          ANTHROPIC_BASE_URL: server.url,
          MCA_HOME: home,
          HOME: home,
        },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Line);
    expect(nesting(lines)).toEqual(EXPECTED);
  });

  it('the Agent SDK receives the subagent messages with parent_tool_use_id', async () => {
    const { root, home } = tempProject('mca-sdk-sub-', { 'notes.txt': 'code 7731\n' });
    server = await startFakeAnthropic(SCRIPT);
    const messages: SDKMessage[] = await sdkQuery({ root, home, baseUrl: server.url }, 'find the code', {
      agents: {
        finder: { description: 'Finds facts', prompt: 'You are FINDER. Read and report one fact.', tools: ['Read'] },
      },
    });
    expect(nesting(messages as unknown as Line[])).toEqual(EXPECTED);
  });

  it("the host's agents and the project's custom commands are listed in the initialize answer and context usage", async () => {
    const { root, home } = tempProject('mca-sdk-agents-', {
      '.claude/commands/review.md':
        '---\ndescription: Review the diff\nargument-hint: <path>\n---\nReview $ARGUMENTS\n',
    });
    server = await startFakeAnthropic([{ text: 'Hi.' }]);
    const run = query({
      prompt: 'hi',
      options: sdkOptions(
        { root, home, baseUrl: server.url },
        { agents: { finder: { description: 'Finds facts', prompt: 'You are FINDER.', tools: ['Read'] } } },
      ),
    });
    const agents = await run.supportedAgents();
    const commands = await run.supportedCommands();
    const usage = await run.getContextUsage();
    const messages = await collect(run);
    expect(messages[0]).toMatchObject({
      type: 'system',
      subtype: 'init',
      agents: expect.arrayContaining(['finder', 'general-purpose']),
      // The project's /review replaces mca's built-in one; /security-review is built in.
      slash_commands: ['review', 'security-review'],
    });
    expect(agents).toEqual(expect.arrayContaining([{ name: 'finder', description: 'Finds facts' }]));
    expect(agents.map((agent) => agent.name)).toEqual(expect.arrayContaining(['general-purpose', 'Explore']));
    expect(commands).toEqual([
      expect.objectContaining({ name: 'review', argumentHint: '<path>' }),
      expect.objectContaining({ name: 'security-review' }),
    ]);
    expect(usage.agents).toEqual([expect.objectContaining({ agentType: 'finder' })]);
    // The model is told about the host's agent in the Agent tool's description.
    const agentTool = (server.requests[0]!.body.tools as Array<{ name: string; description: string }>).find(
      (tool) => tool.name === 'Agent',
    );
    expect(agentTool?.description).toContain('finder: Finds facts');
  });
});

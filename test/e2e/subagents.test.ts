/**
 * Subagents through the built binary against the loopback fake (issue 29). The fake tells the parent's requests
 * from a subagent's by system prompt, and records the order they arrive in.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import {
  ask,
  delegatingParent,
  type Dirs,
  requestText,
  routedFake,
  type Routed,
  systemText,
  toolNames,
  trust,
  userText,
  writeFiles,
} from './support/subagent-fake.js';

const FINDER = [
  '---',
  'name: finder',
  'description: Finds facts in the codebase FINDER-DESCRIPTION',
  'tools: Read, Grep',
  '---',
  'You are FINDER, a subagent that reads files and reports one fact.',
  '',
].join('\n');

const SECRET_LINE = 'the launch code is SECRET-CONTENT-7731';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function project(): Dirs {
  const dirs = tempProject('mca-subagents-', {
    'notes.txt': `${SECRET_LINE}\n`,
    '.claude/agents/finder.md': FINDER,
  });
  const userHome = join(dirname(dirs.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  return { ...dirs, userHome };
}

const isFinder = (body: Parameters<typeof systemText>[0]) => systemText(body).includes('You are FINDER');

describe('subagents', () => {
  it('a project subagent gets its own system prompt and exactly its tools; the parent sees only its answer', async () => {
    const dirs = project();
    await trust(dirs);
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'finder',
          match: isFinder,
          reply: (index) =>
            index === 0
              ? { text: 'Reading.', calls: [{ id: 'toolu_sub_read', name: 'Read', input: { path: 'notes.txt' } }] }
              : { text: 'FOUND: the code starts with SECRET (notes.txt line 1).' },
        },
        delegatingParent(
          'toolu_agent_1',
          { subagent_type: 'finder', description: 'find the code', prompt: 'Find the launch code.' },
          { text: 'Delegating.', answer: 'The subagent found it.' },
        ),
      ],
      log,
    );
    const run = await ask(dirs, server, 'what is the launch code?');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('The subagent found it.');

    expect(log.map((entry) => entry.route)).toEqual(['parent', 'finder', 'finder', 'parent']);
    const [parentFirst, subFirst, subSecond, parentSecond] = log.map((entry) => entry.body);
    // The parent is told about the project agent; the subagent has its own prompt and exactly its two tools.
    expect(JSON.stringify(parentFirst!.tools)).toContain('FINDER-DESCRIPTION');
    expect(toolNames(parentFirst!)).toContain('Agent');
    expect(systemText(parentFirst!)).not.toContain('You are FINDER');
    expect(toolNames(subFirst!)).toEqual(['Grep', 'Read']);
    expect(userText(subFirst!)).toContain('Find the launch code.');
    // The subagent read the file; its content reached the subagent only.
    expect(requestText(subSecond!)).toContain('SECRET-CONTENT-7731');
    expect(requestText(parentSecond!)).toContain('FOUND: the code starts with SECRET');
    expect(requestText(parentSecond!)).not.toContain('SECRET-CONTENT-7731');
    // The subagent's steps are kept beside the session file, in a transcript the result names.
    const transcript = /transcript ([^\s")]+\.jsonl)/.exec(requestText(parentSecond!))?.[1];
    expect(transcript).toBeDefined();
    const kept = readFileSync(transcript!.replace(/\\\\/g, '\\'), 'utf8');
    expect(kept).toContain('SECRET-CONTENT-7731');
  });

  it('a subagent cannot call a tool outside its list', async () => {
    const dirs = project();
    await trust(dirs);
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'finder',
          match: isFinder,
          reply: (index) =>
            index === 0
              ? { text: 'Trying.', calls: [{ id: 'toolu_sub_bash', name: 'Bash', input: { command: 'touch pwned' } }] }
              : { text: 'Could not run it.' },
        },
        delegatingParent('toolu_agent_2', {
          subagent_type: 'finder',
          description: 'try bash',
          prompt: 'Run touch pwned.',
        }),
      ],
      log,
    );
    const run = await ask(dirs, server, 'go', ['--dangerously-skip-permissions']);
    expect(run.code).toBe(0);
    expect(existsSync(join(dirs.root, 'pwned'))).toBe(false);
    const subSecond = log.filter((entry) => entry.route === 'finder')[1]!.body;
    expect(requestText(subSecond)).toContain('Unknown tool \\"Bash\\"');
  });

  it("a subagent calling WebSearch gets one line saying the search is the main session's", async () => {
    const dirs = project();
    await trust(dirs);
    const log: Routed[] = [];
    const searcher = FINDER.replace('tools: Read, Grep', 'tools: Read, WebSearch');
    writeFiles(dirs.root, { '.claude/agents/finder.md': searcher });
    server = await routedFake(
      [
        {
          name: 'finder',
          match: isFinder,
          reply: (index) =>
            index === 0
              ? { text: '', calls: [{ id: 'toolu_sub_search', name: 'WebSearch', input: { query: 'node 22' } }] }
              : { text: 'Could not search.' },
        },
        delegatingParent('toolu_agent_ws', {
          subagent_type: 'finder',
          description: 'search',
          prompt: 'Search for node 22.',
        }),
      ],
      log,
    );
    // The main session's search is permitted from the start; the subagent's requests still never carry it.
    const run = await ask(dirs, server, 'go', ['--allowedTools', 'WebSearch']);
    expect(run.code, run.stderr).toBe(0);
    expect(log.map((entry) => entry.route)).toEqual(['parent', 'finder', 'finder', 'parent']);
    const [parentFirst, subFirst, subSecond] = log.map((entry) => entry.body);
    expect(JSON.stringify(parentFirst!.tools)).toContain('web_search_20250305');
    expect(JSON.stringify(subFirst!.tools)).not.toContain('web_search');
    expect(toolNames(subFirst!)).toEqual(['Read']);
    const answered = requestText(subSecond!);
    expect(answered).toContain('WebSearch is available to the main session only: a subagent cannot search the web.');
    expect(answered).not.toContain('Unknown tool');
  });

  it('two Agent calls in one reply run concurrently: both subagents ask before either gets its answer', async () => {
    const dirs = project();
    await trust(dirs);
    const log: Routed[] = [];
    let releaseFirst: () => void = () => undefined;
    /** Set when the second subagent's request arrived while the first one's answer was still held back. */
    let overlapped = false;
    const bothAsked = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    // A liveness fallback only: a sequential run would wait here forever; the order below is what is asserted.
    const fallback = setTimeout(releaseFirst, 8_000);
    const subReply = (task: string) => (index: number) => {
      if (index === 0) {
        if (log.filter((entry) => entry.route.startsWith('sub-')).length === 2) {
          overlapped = true;
          releaseFirst();
        }
        return { text: `Answer for ${task}: ANSWER-${task}`, hold: { afterChars: 2, release: bothAsked } };
      }
      return { text: 'unexpected' };
    };
    server = await routedFake(
      [
        { name: 'sub-A', match: (body) => isFinder(body) && userText(body).includes('TASK-A'), reply: subReply('A') },
        { name: 'sub-B', match: (body) => isFinder(body) && userText(body).includes('TASK-B'), reply: subReply('B') },
        {
          name: 'parent',
          match: () => true,
          reply: (index) =>
            index === 0
              ? {
                  text: 'Two at once.',
                  calls: [
                    {
                      id: 'toolu_a',
                      name: 'Agent',
                      input: { subagent_type: 'finder', description: 'a', prompt: 'TASK-A' },
                    },
                    {
                      id: 'toolu_b',
                      name: 'Agent',
                      input: { subagent_type: 'finder', description: 'b', prompt: 'TASK-B' },
                    },
                  ],
                }
              : { text: 'both done' },
        },
      ],
      log,
    );
    const run = await ask(dirs, server, 'two tasks');
    clearTimeout(fallback);
    expect(run.code).toBe(0);
    expect(overlapped).toBe(true);
    // Both subagents' requests arrived while the parent's reply was still being worked on, before its next request.
    expect(log.map((entry) => entry.route).sort()).toEqual(['parent', 'parent', 'sub-A', 'sub-B']);
    expect(log.map((entry) => entry.route).slice(-1)).toEqual(['parent']);
    const last = requestText(log.at(-1)!.body);
    expect(last).toContain('ANSWER-A');
    expect(last).toContain('ANSWER-B');
  });

  it("a subagent's asks reach the -p rules labelled with it, and its tokens count toward the session's usage", async () => {
    const dirs = project();
    writeFiles(dirs.root, {
      '.claude/agents/writer.md': '---\nname: writer\ndescription: writes\ntools: Write\n---\nYou are WRITER.\n',
    });
    await trust(dirs);
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'writer',
          match: (body) => systemText(body).includes('You are WRITER'),
          reply: (index) =>
            index === 0
              ? {
                  text: '',
                  calls: [{ id: 'toolu_w', name: 'Write', input: { path: 'out.txt', content: 'x' } }],
                  usage: { input_tokens: 1000 },
                }
              : { text: 'Could not write.', usage: { input_tokens: 2000 } },
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
                      id: 'toolu_agent_w',
                      name: 'Agent',
                      input: { subagent_type: 'writer', description: 'w', prompt: 'Write out.txt' },
                    },
                  ],
                  usage: { input_tokens: 100 },
                }
              : { text: 'parent done', usage: { input_tokens: 10 } },
        },
      ],
      log,
    );
    const run = await ask(dirs, server, 'write it', ['--output-format', 'json']);
    expect(run.code).toBe(0);
    expect(existsSync(join(dirs.root, 'out.txt'))).toBe(false);
    // The -p rules denied the subagent's Write; the denial names the subagent.
    const writerSecond = log.filter((entry) => entry.route === 'writer')[1]!.body;
    expect(requestText(writerSecond)).toContain('PERMISSION_DENIED');
    expect(requestText(writerSecond)).toContain('[subagent writer]');
    // Parent (100 + 10) and subagent (1000 + 2000) input tokens: the session's usage holds all four requests.
    const result = JSON.parse(run.stdout) as { usage: { input_tokens: number } };
    expect(result.usage.input_tokens).toBe(3110);
  });

  it('text protocol: the subagent is told its own tools in its system prompt and answers through Finish', async () => {
    const dirs = project();
    await trust(dirs);
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'finder',
          match: isFinder,
          reply: (index) =>
            index === 0
              ? { text: 'Thought: read it\nAction: Read[{"path": "notes.txt"}]' }
              : { text: 'Thought: done\nAction: Finish[FOUND-IN-TEXT-PROTOCOL]' },
        },
        {
          name: 'parent',
          match: () => true,
          reply: (index) =>
            index === 0
              ? {
                  text: 'Thought: delegate\nAction: Agent[{"subagent_type": "finder", "description": "find", "prompt": "Find the code."}]',
                }
              : { text: 'Thought: ok\nAction: Finish[parent finished]' },
        },
      ],
      log,
    );
    const run = await ask(dirs, server, 'find it', [], { MCA_TOOL_PROTOCOL: 'text' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('parent finished');
    expect(log.map((entry) => entry.route)).toEqual(['parent', 'finder', 'finder', 'parent']);
    const sub = systemText(log[1]!.body);
    expect(sub).toContain('## Read');
    expect(sub).toContain('## Grep');
    expect(sub).not.toContain('## Bash');
    expect(sub).not.toContain('## Agent');
    const last = requestText(log[3]!.body);
    expect(last).toContain('FOUND-IN-TEXT-PROTOCOL');
    expect(last).not.toContain('SECRET-CONTENT-7731');
  });

  it('a subagent whose tools name Agent may start subagents, at most three levels deep', async () => {
    const dirs = project();
    writeFiles(dirs.root, {
      '.claude/agents/nester.md': '---\nname: nester\ndescription: nests\ntools: Agent, Read\n---\nYou are NESTER.\n',
    });
    await trust(dirs);
    const log: Routed[] = [];
    const delegate = { subagent_type: 'nester', description: 'deeper', prompt: 'Go one level deeper.' };
    server = await routedFake(
      [
        {
          name: 'nester',
          match: (body) => systemText(body).includes('You are NESTER'),
          reply: (_index, body) => {
            const text = requestText(body);
            if (text.includes('nest at most 3 deep')) return { text: 'DEEPEST-REFUSED' };
            if (text.includes('DEEPEST-REFUSED') || text.includes('LEVEL-DONE')) return { text: 'LEVEL-DONE' };
            return { text: '', calls: [{ name: 'Agent', input: delegate }] };
          },
        },
        {
          name: 'parent',
          match: () => true,
          reply: (index) =>
            index === 0 ? { text: '', calls: [{ name: 'Agent', input: delegate }] } : { text: 'parent done' },
        },
      ],
      log,
    );
    const run = await ask(dirs, server, 'nest');
    expect(run.code).toBe(0);
    // Three levels each ask twice (the call, then the answer); the third level's Agent call is refused.
    expect(log.filter((entry) => entry.route === 'nester')).toHaveLength(6);
    expect(requestText(log.at(-1)!.body)).toContain('LEVEL-DONE');
  });
});

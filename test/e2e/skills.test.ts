/**
 * Skills and trust through the built binary against the loopback fake (issue 29): a skill's description is in the
 * first request and its body only after the Skill call; an untrusted project's agents and skills are not loaded;
 * hostile definition folders (huge, malformed, hundreds of files) cost bounded warnings, never a crash.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { SKILL_LISTING_TOKENS } from '../../src/subagents/skill-listing.js';
import { MAX_PROBLEMS } from '../../src/subagents/definition-files.js';
import { AGENT_LISTING_CHARS } from '../../src/subagents/agent-tool.js';
import {
  ask,
  type Dirs,
  requestText,
  routedFake,
  type Routed,
  systemText,
  toolNames,
  trust,
  writeFiles,
} from './support/subagent-fake.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SKILL = [
  '---',
  'name: release-notes',
  'description: Writes release notes in the team format SKILL-DESCRIPTION-5511',
  'license: MIT',
  'metadata:',
  '  owner: docs-team',
  '---',
  '# Release notes',
  'SKILL-BODY-8822: list changes by area, newest first; see references/format.md.',
  '',
].join('\n');

const AGENT = [
  '---',
  'name: reviewer',
  'description: Reviews diffs AGENT-DESCRIPTION-3390',
  '---',
  'You review.',
  '',
].join('\n');

function project(files: Record<string, string> = {}): Dirs {
  const dirs = tempProject('mca-skills-', {
    '.claude/skills/release-notes/SKILL.md': SKILL,
    '.claude/agents/reviewer.md': AGENT,
    ...files,
  });
  const userHome = join(dirname(dirs.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  return { ...dirs, userHome };
}

function answerOnly(log: Routed[]): Promise<FakeAnthropic> {
  return routedFake([{ name: 'parent', match: () => true, reply: () => ({ text: 'ok' }) }], log);
}

describe('skills', () => {
  it("a skill's description is in the first request and its body only after the Skill call", async () => {
    const dirs = project();
    await trust(dirs);
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'parent',
          match: () => true,
          reply: (index) =>
            index === 0
              ? { text: 'Loading.', calls: [{ id: 'toolu_skill', name: 'Skill', input: { skill: 'release-notes' } }] }
              : { text: 'Notes written.' },
        },
      ],
      log,
    );
    const run = await ask(dirs, server, 'write the release notes');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [first, second] = log.map((entry) => entry.body);
    expect(systemText(first!)).toContain(
      'release-notes: Writes release notes in the team format SKILL-DESCRIPTION-5511',
    );
    expect(toolNames(first!)).toContain('Skill');
    expect(requestText(first!)).not.toContain('SKILL-BODY-8822');
    expect(requestText(second!)).toContain('SKILL-BODY-8822');
  });

  it('a Skill(name) deny rule refuses loading that skill', async () => {
    const dirs = project();
    await trust(dirs);
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'parent',
          match: () => true,
          reply: (index) =>
            index === 0
              ? { text: '', calls: [{ id: 'toolu_skill', name: 'Skill', input: { skill: 'release-notes' } }] }
              : { text: 'denied then' },
        },
      ],
      log,
    );
    const run = await ask(dirs, server, 'go', ['--disallowedTools', 'Skill(release-notes)']);
    expect(run.code).toBe(0);
    const second = requestText(log[1]!.body);
    expect(second).toContain('PERMISSION_DENIED');
    expect(second).not.toContain('SKILL-BODY-8822');
  });

  it("an untrusted project's agents and skills are not loaded; the user's own are", async () => {
    const dirs = project();
    writeFiles(dirs.userHome, {
      '.claude/skills/my-habits/SKILL.md': '---\nname: my-habits\ndescription: USER-SKILL-4471\n---\nbody\n',
      '.claude/agents/helper.md': '---\nname: helper\ndescription: USER-AGENT-9902\n---\nYou help.\n',
    });
    const log: Routed[] = [];
    server = await answerOnly(log);
    const run = await ask(dirs, server, 'hello');
    expect(run.code).toBe(0);
    const first = log[0]!.body;
    const text = `${requestText(first)}\n${JSON.stringify(first.tools)}`;
    expect(text).not.toContain('SKILL-DESCRIPTION-5511');
    expect(text).not.toContain('AGENT-DESCRIPTION-3390');
    expect(text).toContain('USER-SKILL-4471');
    expect(text).toContain('USER-AGENT-9902');
  });

  it('hostile definitions (huge, malformed, hundreds of files) cost bounded one-line warnings naming the file', async () => {
    const files: Record<string, string> = {
      '.claude/skills/bad-yaml/SKILL.md': '---\nname: [unclosed\ndescription: x\n---\nbody\n',
      '.claude/skills/huge-front/SKILL.md': `---\nname: huge-front\ndescription: ${'x'.repeat(40_000)}\n---\nbody\n`,
      '.claude/skills/huge-file/SKILL.md': `---\nname: huge-file\ndescription: big\n---\n${'y'.repeat(300_000)}\n`,
      '.claude/skills/laughs/SKILL.md': `---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ndescription: laughs\n---\nbody\n`,
      '.claude/skills/Bad_Name/SKILL.md': '---\ndescription: bad name\n---\nbody\n',
      '.claude/agents/broken.md': '---\n: : :\n---\n',
    };
    for (let index = 0; index < 30; index += 1) files[`.claude/agents/bad-${index}.md`] = '---\nname: [\n---\n';
    for (let index = 0; index < 150; index += 1) {
      files[`.claude/agents/agent-${index}.md`] =
        `---\nname: agent-${index}\ndescription: ${'long '.repeat(200)}\n---\nYou work.\n`;
    }
    for (let index = 0; index < 300; index += 1) {
      const name = `skill-${String(index).padStart(3, '0')}`;
      files[`.claude/skills/${name}/SKILL.md`] =
        `---\nname: ${name}\ndescription: ${'many skills '.repeat(20)}\n---\nbody\n`;
    }
    const dirs = project(files);
    await trust(dirs);
    const log: Routed[] = [];
    server = await answerOnly(log);
    const run = await ask(dirs, server, 'hello');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('ok');
    const warnings = run.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.length).toBeLessThanOrEqual(MAX_PROBLEMS + 1);
    expect(run.stderr).toMatch(/entries; only the first 200 were read/);
    expect(run.stderr).toMatch(/…and \d+ more definition problems/);
    expect(run.stderr).toContain(join('bad-yaml', 'SKILL.md'));
    expect(run.stderr).toContain(join('huge-file', 'SKILL.md'));
    expect(run.stderr).toContain(join('Bad_Name', 'SKILL.md'));
    // The listing stays within its budget (about 3 characters a token), with the rest counted.
    const system = systemText(log[0]!.body);
    const listing = system.slice(system.indexOf('# Skills'));
    const end = listing.indexOf('\n# ', 2);
    const section = end < 0 ? listing : listing.slice(0, end);
    expect(section.length).toBeLessThanOrEqual(SKILL_LISTING_TOKENS * 3 + 3);
    expect(section).toMatch(/more skills are not listed/);
    // The Agent tool's listing of 150 long definitions stays bounded too.
    const tools = (log[0]!.body.tools ?? []) as Array<{ name: string; description: string }>;
    const agentTool = tools.find((tool) => tool.name === 'Agent');
    expect(agentTool?.description).toMatch(/more are not listed|More subagent types/);
    expect(agentTool!.description.length).toBeLessThanOrEqual(AGENT_LISTING_CHARS + 2_000);
  });
});

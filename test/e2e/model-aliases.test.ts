/**
 * Claude Code's model short names through the built binary: `haiku`, `sonnet`, `opus` become their family's
 * current model id wherever a model is named (`--model`, settings `model`, the SDK's `set_model`, a subagent's
 * `model:`), and ANTHROPIC_DEFAULT_*_MODEL points a short name elsewhere, as in Claude Code.
 */
import { dirname, join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { MODEL_ALIASES } from '../../src/config/model-aliases.js';
import {
  ask,
  delegatingParent,
  type Dirs,
  routedFake,
  type Routed,
  systemText,
  trust,
} from './support/subagent-fake.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-ant-test-aliases-0123456789';

async function askWith(args: string[], extraEnv: Record<string, string> = {}, files: Record<string, string> = {}) {
  const project = tempProject('mca-aliases-', files);
  server = await startFakeAnthropic([{ text: 'ok' }]);
  const run = await runMca(['-p', 'hi', ...args], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: project.home,
      HOME: project.home,
      ...extraEnv,
    },
  });
  return { run, models: server.requests.map((request) => request.body.model) };
}

describe('model short names', () => {
  it('the ids are current Claude models of each family', () => {
    expect(MODEL_ALIASES).toEqual({ sonnet: 'claude-sonnet-5-5', opus: 'claude-opus-5-5', haiku: 'claude-haiku-5-5' });
  });

  it('--model sonnet sends the sonnet id (over MCA_MODEL naming another)', async () => {
    const { run, models } = await askWith(['--model', 'sonnet'], { MCA_MODEL: 'claude-opus-4-5' });
    expect(run.code, run.stderr).toBe(0);
    expect(models).toEqual(['claude-sonnet-5-5']);
    expect(run.stderr).not.toContain('not a model mca knows');
  });

  it('ANTHROPIC_DEFAULT_HAIKU_MODEL points `haiku` at another model', async () => {
    const { run, models } = await askWith(['--model', 'haiku'], { ANTHROPIC_DEFAULT_HAIKU_MODEL: 'claude-haiku-4-5' });
    expect(run.code, run.stderr).toBe(0);
    expect(models).toEqual(['claude-haiku-4-5']);
  });

  it('settings `model: "opus"` sends the opus id', async () => {
    const { run, models } = await askWith([], {}, { '.claude/settings.json': JSON.stringify({ model: 'opus' }) });
    expect(run.code, run.stderr).toBe(0);
    expect(models).toEqual(['claude-opus-5-5']);
  });

  it("the SDK's set_model with a short name moves the session to its id", async () => {
    const project = tempProject('mca-aliases-sdk-');
    server = await startFakeAnthropic([{ text: 'ok' }]);
    const stdin = [
      JSON.stringify({ type: 'control_request', request_id: 'm1', request: { subtype: 'set_model', model: 'haiku' } }),
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        parent_tool_use_id: null,
      }),
      '',
    ].join('\n');
    const run = await runMca(['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
      cwd: project.root,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: project.home, HOME: project.home },
      stdin,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests.map((request) => request.body.model)).toEqual(['claude-haiku-5-5']);
  });

  it('a subagent with `model: haiku` sends its requests with the haiku id; the parent keeps its model', async () => {
    const quick = ['---', 'name: quick', 'description: quick lookups', 'model: haiku', '---', 'You are QUICK.', ''];
    const project = tempProject('mca-aliases-agent-', { '.claude/agents/quick.md': quick.join('\n') });
    const userHome = join(dirname(project.root), 'userhome');
    mkdirSync(userHome, { recursive: true });
    const dirs: Dirs = { ...project, userHome };
    await trust(dirs);
    const log: Routed[] = [];
    server = await routedFake(
      [
        { name: 'quick', match: (body) => systemText(body).includes('You are QUICK'), reply: () => ({ text: 'Q' }) },
        delegatingParent('toolu_q', { subagent_type: 'quick', description: 'q', prompt: 'look' }),
      ],
      log,
    );
    const run = await ask(dirs, server, 'go', ['--model', 'claude-opus-4-5']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('alias');
    expect(log.map((entry) => [entry.route, entry.body.model])).toEqual([
      ['parent', 'claude-opus-4-5'],
      ['quick', 'claude-haiku-5-5'],
      ['parent', 'claude-opus-4-5'],
    ]);
  });
});

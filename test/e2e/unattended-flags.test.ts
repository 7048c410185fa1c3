/**
 * Claude Code's flags for unattended runs: `--max-budget-usd` stops before the next model request once the cost
 * reached the budget (`error_max_budget_usd`; the calls of the reply that spent it still ran), also as the Agent
 * SDK's `maxBudgetUsd`; `--no-session-persistence` leaves no session file; `--agent <name>` runs the conversation as
 * that subagent definition (its prompt and tools). On the old tree all three were ignored with a warning.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkQuery } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, systemText, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-unattended-0123456789';
const MODEL = 'claude-sonnet-4-5';
/** A million input tokens of Sonnet: $3. */
const EXPENSIVE = { input_tokens: 1_000_000, output_tokens: 10 };
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function sessionFiles(home: string): string[] {
  const projects = join(home, 'projects');
  if (!existsSync(projects)) return [];
  return readdirSync(projects).flatMap((dir) =>
    readdirSync(join(projects, dir)).filter((name) => name.endsWith('.jsonl')),
  );
}

describe('unattended flags', () => {
  it('--max-budget-usd: the reply that spent the budget runs its call, then the turn stops before the next request', async () => {
    const { root, home } = tempProject('mca-budget-');
    writeFileSync(join(root, 'a.txt'), 'alpha\n');
    server = await startFakeAnthropic([
      { text: 'Reading.', calls: [{ name: 'Read', input: { path: 'a.txt' } }], usage: EXPENSIVE },
      { text: 'Never asked.' },
    ]);
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: home };
    const run = await runMca(
      ['-p', 'read a.txt', '--model', MODEL, '--output-format', 'stream-json', '--verbose', '--max-budget-usd', '1'],
      { cwd: root, env },
    );
    expect(run.code).toBe(1);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The Read of the reply that spent the budget ran (its result line), then no request followed.
    expect(JSON.stringify(lines.filter((line) => line.type === 'user'))).toContain('alpha');
    const result = lines.at(-1)!;
    expect(result).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    expect(result.total_cost_usd).toBeGreaterThanOrEqual(1);
    expect(String((result.errors as string[])[0])).toContain('--max-budget-usd');
    expect(server.requests).toHaveLength(1);
  });

  it("the Agent SDK's maxBudgetUsd gives error_max_budget_usd", async () => {
    const { root, home } = tempProject('mca-budget-sdk-');
    server = await startFakeAnthropic([
      { text: 'Listing.', calls: [{ name: 'Glob', input: { pattern: '*' } }], usage: EXPENSIVE },
      { text: 'Never asked.' },
    ]);
    const messages = await sdkQuery({ root, home, baseUrl: server.url }, 'list', { maxBudgetUsd: 0.5, model: MODEL });
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'error_max_budget_usd', is_error: true });
    expect(server.requests).toHaveLength(1);
  });

  it('--no-session-persistence leaves no session file (without it there is one)', async () => {
    const { root, home } = tempProject('mca-nopersist-');
    server = await startFakeAnthropic([{ text: 'one' }, { text: 'two' }]);
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: home };
    const kept = await runMca(['-p', 'hi'], { cwd: root, env });
    expect(kept.code, kept.stderr).toBe(0);
    expect(sessionFiles(home)).toHaveLength(1);
    const gone = await runMca(['-p', 'hi', '--no-session-persistence'], { cwd: root, env });
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout.trim()).toBe('two');
    expect(sessionFiles(home)).toHaveLength(1);
  });

  it('--agent runs the conversation with the definition prompt and tools; an unknown name is exit 2', async () => {
    const { root, home } = tempProject('mca-main-agent-');
    mkdirSync(join(home, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      join(home, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews\ntools: Read, Grep\n---\nYou are the strict reviewer.\n',
    );
    server = await startFakeAnthropic([{ text: 'Looks fine.' }]);
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: home };
    const run = await runMca(['-p', 'review', '--agent', 'reviewer'], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    const body = server.requests[0]!.body;
    expect(systemText(body)).toContain('You are the strict reviewer.');
    expect((body.tools as Array<{ name: string }>).map((tool) => tool.name).sort()).toEqual(['Grep', 'Read']);
    const unknown = await runMca(['-p', 'review', '--agent', 'nobody'], { cwd: root, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no agent named "nobody"');
  });
});

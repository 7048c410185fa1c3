/**
 * `--fallback-model` (and settings `fallbackModel`) through the built binary against the loopback fake API: a main
 * model that answers 529 after mca's retries, or 404, moves the call to the fallback model, the rest of the session
 * stays there, the person is told on stderr (stream-json: a `system` line `mca_model_fallback`), and the cost is the
 * fallback's. A fallback equal to the main model is refused with Claude Code's message.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-ant-test-fallback-0123456789';

/** One retry with a 1 ms base: the primary is asked twice before the fallback. */
function env(home: string, url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: url,
    MCA_HOME: home,
    HOME: join(home, 'userhome'),
    MCA_MAX_RETRIES: '1',
    MCA_RETRY_BASE_MS: '1',
    ...extra,
  };
}

const models = (fake: FakeAnthropic): string[] => fake.requests.map((request) => request.body.model ?? '');

describe('--fallback-model', () => {
  it('a 529 main model moves the call to the fallback, which answers the rest of the session and is priced', async () => {
    const project = tempProject('mca-fallback-529-', { 'notes.txt': 'NOTE-CONTENT\n' });
    server = await startFakeAnthropic(
      [
        { text: '', calls: [{ id: 'toolu_read', name: 'Read', input: { path: 'notes.txt' } }] },
        { text: 'FALLBACK-ANSWER', usage: { input_tokens: 1_000, output_tokens: 10 } },
      ],
      { modelErrors: { 'claude-opus-4-5': 529 } },
    );
    const run = await runMca(
      ['-p', 'read notes', '--model', 'claude-opus-4-5', '--fallback-model', 'claude-haiku-4-5'],
      { cwd: project.root, env: env(project.home, server.url, { MCA_TOOL_PROTOCOL: 'native' }) },
    );
    expect(run.stderr).toContain('switched to the fallback model claude-haiku-4-5');
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('FALLBACK-ANSWER');
    // Twice the main model (the first try and mca's one retry), then the fallback for this step and the next.
    expect(models(server)).toEqual(['claude-opus-4-5', 'claude-opus-4-5', 'claude-haiku-4-5', 'claude-haiku-4-5']);
    expect(JSON.stringify(server.requests[3]?.body.messages)).toContain('NOTE-CONTENT');
  });

  it('json: modelUsage names the model that answered, and total_cost_usd is its price', async () => {
    const project = tempProject('mca-fallback-json-');
    server = await startFakeAnthropic([{ text: 'JSON-ANSWER', usage: { input_tokens: 1_000_000, output_tokens: 0 } }], {
      modelErrors: { 'claude-opus-4-5': 529 },
    });
    const run = await runMca(
      ['-p', 'hi', '--output-format', 'json', '--model', 'claude-opus-4-5', '--fallback-model', 'haiku'],
      { cwd: project.root, env: env(project.home, server.url) },
    );
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { result: string; total_cost_usd: number; modelUsage: object };
    expect(result.result).toBe('JSON-ANSWER');
    // `haiku` is the short name of claude-haiku-5-5, priced at $1 per million input tokens.
    expect(models(server).at(-1)).toBe('claude-haiku-5-5');
    expect(Object.keys(result.modelUsage)).toEqual(['claude-haiku-5-5']);
    expect(result.total_cost_usd).toBeCloseTo(1, 6);
    expect(run.stderr).toContain('switched to the fallback model claude-haiku-5-5');
  });

  it('stream-json: a 404 main model is not retried; a system line mca_model_fallback names both models', async () => {
    const project = tempProject('mca-fallback-404-');
    server = await startFakeAnthropic([{ text: 'FROM-SONNET' }], { modelErrors: { 'claude-gone-1': 404 } });
    const run = await runMca(
      [
        '-p',
        'hi',
        '--output-format',
        'stream-json',
        '--verbose',
        '--model',
        'claude-gone-1',
        '--fallback-model',
        'sonnet',
      ],
      { cwd: project.root, env: env(project.home, server.url) },
    );
    expect(run.code).toBe(0);
    expect(models(server)).toEqual(['claude-gone-1', 'claude-sonnet-5-5']);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const notice = lines.find((line) => line.type === 'system' && line.subtype === 'mca_model_fallback');
    expect(notice).toMatchObject({ from: 'claude-gone-1', to: 'claude-sonnet-5-5' });
    expect(String(notice?.reason)).toContain('404');
    expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'FROM-SONNET' });
    expect(Object.keys(lines.at(-1)?.modelUsage as object)).toEqual(['claude-sonnet-5-5']);
  });

  it('the next turn of the session goes straight to the fallback (stream-json input, two messages)', async () => {
    const project = tempProject('mca-fallback-turns-');
    server = await startFakeAnthropic([{ text: 'ONE' }, { text: 'TWO' }], { modelErrors: { 'claude-opus-5-5': 529 } });
    const user = (text: string) =>
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text }] },
        parent_tool_use_id: null,
      });
    const run = await runMca(
      [
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--model',
        'opus',
        '--fallback-model',
        'claude-haiku-4-5',
      ],
      {
        cwd: project.root,
        env: env(project.home, server.url, { MCA_MAX_RETRIES: '0' }),
        stdin: [user('first'), user('second'), ''].join('\n'),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    // The main model (`opus`: claude-opus-5-5) is asked once; the second turn starts on the fallback.
    expect(models(server)).toEqual(['claude-opus-5-5', 'claude-haiku-4-5', 'claude-haiku-4-5']);
    const results = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.type === 'result');
    expect(results.map((line) => line.result)).toEqual(['ONE', 'TWO']);
  });

  it('without a fallback the 529 stays an error after the retries', async () => {
    const project = tempProject('mca-fallback-none-');
    server = await startFakeAnthropic([{ text: 'never' }], { modelErrors: { 'claude-opus-4-5': 529 } });
    const run = await runMca(['-p', 'hi', '--model', 'claude-opus-4-5'], {
      cwd: project.root,
      env: env(project.home, server.url),
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('overloaded');
    expect(models(server)).toEqual(['claude-opus-4-5', 'claude-opus-4-5']);
  });

  it('settings fallbackModel (the user file) is the chain when no flag is given', async () => {
    const project = tempProject('mca-fallback-settings-');
    const userHome = join(project.home, 'userhome');
    mkdirSync(join(userHome, '.claude'), { recursive: true });
    writeFileSync(
      join(userHome, '.claude', 'settings.json'),
      JSON.stringify({ fallbackModel: ['claude-gone-2', 'haiku'] }),
    );
    server = await startFakeAnthropic([{ text: 'THIRD-TIME' }], {
      modelErrors: { 'claude-opus-4-5': 529, 'claude-gone-2': 404 },
    });
    const run = await runMca(['-p', 'hi', '--model', 'claude-opus-4-5'], {
      cwd: project.root,
      env: env(project.home, server.url, { MCA_MAX_RETRIES: '0' }),
    });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('THIRD-TIME');
    expect(models(server)).toEqual(['claude-opus-4-5', 'claude-gone-2', 'claude-haiku-5-5']);
  });

  it('a fallback equal to the main model (short name or id) is refused with Claude Code’s message', async () => {
    const project = tempProject('mca-fallback-same-');
    server = await startFakeAnthropic([{ text: 'never' }]);
    const run = await runMca(['-p', 'hi', '--model', 'sonnet', '--fallback-model', 'claude-sonnet-5-5'], {
      cwd: project.root,
      env: env(project.home, server.url),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Fallback model cannot be the same as the main model');
    expect(server.requests).toHaveLength(0);
  });
});

/**
 * docs/ci.md's two GitHub Actions workflows, run here with their own command lines (read from the page) against the
 * loopback model: the `Review` step's script under bash -e with `mca` on PATH (a shim for the built binary), and the
 * claude-code-action step as the action runs it: the Agent SDK's query() with `path_to_claude_code_executable` as
 * pathToClaudeCodeExecutable and `claude_args` as extraArgs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseShell } from 'shell-quote';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkQuery } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runsWith } from '../helpers/optional-tools.js';
import { MCA_BIN } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-ci-docs-0123456789';
const page = readFileSync(fileURLToPath(new URL('../../docs/ci.md', import.meta.url)), 'utf8');
const blocks = (lang: string): string[] =>
  [...page.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1] ?? '');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
const workflows = blocks('yaml').map((text) => parseYaml(text) as { jobs: { review: { steps: Step[] } } });
const steps = (index: number): Step[] => workflows[index]?.jobs.review.steps ?? [];

let hasJq = true;
try {
  execFileSync('jq', ['--version'], { stdio: 'ignore' });
} catch {
  hasJq = false;
}

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A directory with an `mca` that runs the built binary, as `npm install -g` puts one on PATH. */
function shimDir(root: string): string {
  const dir = join(root, '..', `${root.split('/').pop() ?? 'p'}-bin`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mca'), `#!/bin/sh\nexec "${process.execPath}" "${MCA_BIN}" "$@"\n`);
  chmodSync(join(dir, 'mca'), 0o755);
  return dir;
}

function gitRepo(root: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'base');
  writeFileSync(join(root, 'a.txt'), 'changed\n');
  git('add', 'a.txt');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-m', 'change');
}

function runStep(step: Step, root: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-e', '-c', step.run ?? ''], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const verdict = (value: string) => ({
  text: '',
  calls: [{ name: 'StructuredOutput', input: { verdict: value, summary: `Verdict: ${value}.`, problems: [] } }],
});

describe('docs/ci.md', () => {
  it.runIf(runsWith('jq', hasJq, 'the CI docs review step'))(
    'the review step: typed output into the step summary, the step fails unless the verdict is approve',
    async () => {
      const review = steps(0).find((step) => step.name === 'Review');
      expect(review?.run).toContain('mca -p');
      for (const [value, code] of [
        ['approve', 0],
        ['request_changes', 1],
      ] as const) {
        const { root, home } = tempProject('mca-ci-docs-');
        gitRepo(root);
        mkdirSync(join(root, '.github', 'mca'), { recursive: true });
        writeFileSync(join(root, '.github', 'mca', 'review-schema.json'), blocks('json')[0] ?? '');
        server = await startFakeAnthropic([verdict(value)]);
        const summary = join(home, 'summary.md');
        const run = await runStep(review!, root, {
          PATH: `${shimDir(root)}:${process.env.PATH ?? ''}`,
          HOME: home,
          MCA_HOME: home,
          ANTHROPIC_BASE_URL: server.url,
          ...review!.env,
          ANTHROPIC_API_KEY: KEY,
          BASE_REF: 'HEAD~1',
          GITHUB_STEP_SUMMARY: summary,
        });
        expect(run.code, run.stderr).toBe(code);
        expect(readFileSync(summary, 'utf8')).toContain(`Verdict: ${value}.`);
        // The prompt reached the model as written (no flag value taken for more prompt text).
        const sent = JSON.stringify(server.requests[0]?.body.messages);
        expect(sent).toContain('Report real problems only.');
        expect(sent).not.toContain('git log:*');
        expect(server.requests[0]?.body.tools as Array<{ name: string }>).toContainEqual(
          expect.objectContaining({ name: 'StructuredOutput' }),
        );
        await server.close();
        server = undefined;
      }
    },
    60_000,
  );

  it("claude-code-action's step: the SDK runs mca with the step's prompt and claude_args", async () => {
    const action = steps(1).find((step) => step.uses?.startsWith('anthropics/claude-code-action'));
    expect(action?.with?.path_to_claude_code_executable).toBe('${{ env.MCA_PATH }}');
    const { root, home } = tempProject('mca-ci-action-');
    server = await startFakeAnthropic([
      { text: '', calls: [{ name: 'StructuredOutput', input: { mergeable: true, reason: 'Small and tested.' } }] },
    ]);
    // As the action turns claude_args into extraArgs: `--flag value` pairs, a flag alone as null.
    const args = parseShell(action!.with!.claude_args ?? '').filter((arg): arg is string => typeof arg === 'string');
    const extraArgs: Record<string, string | null> = {};
    for (let index = 0; index < args.length; index += 1) {
      const flag = args[index]!.replace(/^--/, '');
      const next = args[index + 1];
      extraArgs[flag] = next !== undefined && !next.startsWith('--') ? ((index += 1), next) : null;
    }
    const messages = await sdkQuery({ root, home, baseUrl: server.url }, action!.with!.prompt ?? '', {
      pathToClaudeCodeExecutable: join(shimDir(root), 'mca'),
      extraArgs,
      settingSources: ['user', 'project', 'local'],
      systemPrompt: { type: 'preset', preset: 'claude_code' },
    });
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'success',
      structured_output: { mergeable: true, reason: 'Small and tested.' },
    });
  }, 60_000);
});

/**
 * Issue 10 through the built binary against the loopback fake Anthropic API: what the model is actually sent.
 * A failing `npm test` reaches the model with its failure lines; a 300k Write and two more turns keep every
 * request under the window with every earlier round in the prompt or in an archive note; a session write failing
 * inside a turn still gives `-p --output-format json` its object; a kill -9 during a compaction loses no input.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { TOOL_PROTOCOLS, type ToolProtocol } from '../../src/config/config.js';
import { systemText, userText } from '../helpers/fake-anthropic-server.js';
import { fakeAnthropicPerTest } from '../helpers/fake-anthropic-per-test.js';
import type { FakeRequestBody, FakeStep } from '../helpers/fake-anthropic-server.js';
import { MCA_BIN, runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { act, agentScript, finish } from './support/agent-script.js';

const KEY = 'sk-ant-test-model-side-0123456789';
const anthropic = fakeAnthropicPerTest();

const serve = anthropic.serve;

/** The tool protocol the scenarios run in: each scenario runs once in each (DESIGN.md "Tool protocol"). */
let protocol: ToolProtocol = 'native';

function env(home: string, extra: Record<string, string> = {}) {
  return {
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: anthropic.url(),
    MCA_HOME: home,
    MCA_TOOL_PROTOCOL: protocol,
    MCA_PERMISSION_MODE: 'bypassPermissions',
    ...extra,
  };
}

/** Characters of everything the request carries as prompt text (system blocks and messages). */
function promptChars(body: FakeRequestBody): number {
  return systemText(body).length + userText(body).length;
}

function sessionFile(home: string): string {
  const projects = join(home, 'projects');
  const [slug] = readdirSync(projects);
  const dir = join(projects, slug ?? '');
  const [file] = readdirSync(dir).filter((name) => /^[0-9a-f-]{36}\.jsonl$/.test(name));
  return join(dir, file ?? '');
}

describe.each(TOOL_PROTOCOLS)('%s tool protocol', (wire) => {
  beforeEach(() => {
    protocol = wire;
  });

  describe('the model sees what a person would need', () => {
    it('a failing npm test reaches the model with its failure lines, stdout and stderr', async () => {
      const { root, home } = tempProject('mca-e2e-npm-', {
        'package.json': JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'node check.js' } }),
        'check.js':
          "console.log('FAIL sum.test.js');\nconsole.log('  expected sum(2, 2) to be 4, got 5');\n" +
          "console.error('AssertionError: 5 !== 4');\nprocess.exit(1);\n",
      });
      const script = agentScript(
        [act('run the tests', 'Bash', { command: 'npm test' }), finish('read it', 'sum is off by one')],
        {
          text: 'unused',
        },
      );
      await serve([script.step, script.step]);
      const run = await runMca(['-p', 'run the tests and tell me what fails'], { cwd: root, env: env(home) });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const seen = userText(script.agentRequests[1] ?? {});
      expect(seen).toContain(
        (wire === 'text' ? 'Observation: ' : '') + 'Error [EXECUTION_ERROR]: Command exited with code 1.',
      );
      expect(seen).toContain('FAIL sum.test.js');
      expect(seen).toContain('expected sum(2, 2) to be 4, got 5');
      expect(seen).toContain('AssertionError: 5 !== 4');
    });
  });

  describe('no request exceeds the window, nothing leaves the prompt unarchived', () => {
    it('a 300,000-character Write and two more turns: every request under the window, round 1 still there', async () => {
      const { root, home } = tempProject('mca-e2e-giant-');
      const content = `${'const value = "generated";\n'.repeat(11_000)}// end\n`; // ≈ 300,000 chars
      const script = agentScript(
        [
          act('write the generated file', 'Write', { path: 'gen.js', content }),
          finish('done', 'wrote gen.js'),
          finish('done', 'second answer'),
          finish('done', 'third answer'),
        ],
        { text: '## 📌 Archived Session Summary\nThe user asked for gen.js; it was written.' },
      );
      await serve([script.step, script.step, script.step, script.step, script.step, script.step]);
      const window = 60_000;
      const extra = { MCA_CONTEXT_WINDOW: String(window) };
      expect((await runMca(['-p', 'generate gen.js'], { cwd: root, env: env(home, extra) })).code).toBe(0);
      expect(readFileSync(join(root, 'gen.js'), 'utf8')).toBe(content);
      expect((await runMca(['-c', '-p', 'second question'], { cwd: root, env: env(home, extra) })).code).toBe(0);
      expect((await runMca(['-c', '-p', 'third question'], { cwd: root, env: env(home, extra) })).code).toBe(0);

      expect(script.agentRequests).toHaveLength(4);
      for (const request of script.agentRequests) expect(promptChars(request) / 3).toBeLessThanOrEqual(window);
      for (const request of script.agentRequests.slice(2)) {
        const prompt = userText(request);
        const inPrompt = prompt.includes('[user] generate gen.js');
        const archived = /Archived/.test(prompt) && /gen\.js/.test(prompt);
        expect(inPrompt || archived).toBe(true);
      }
      // The round holding the Write is small in history: the content is on disk, not three times in the session.
      expect(readFileSync(sessionFile(home), 'utf8').length).toBeLessThan(40_000);
    });
  });

  describe('a turn that fails still reports', () => {
    it('-p --output-format json prints its object when a session write fails inside the turn', async () => {
      const { root, home } = tempProject('mca-e2e-efbig-');
      const script = agentScript([act('look', 'LS', { path: '.' }), finish('done', 'never reached')], {
        text: 'unused',
      });
      await serve([script.step, script.step]);
      // A 4 KB file-size limit: the session file stops growing during the turn, and every later write fails
      // (EFBIG; SIGXFSZ is ignored so the write returns the error instead of killing mca).
      const prompt = `list the files ${'x'.repeat(5_000)}`;
      const shell = `ulimit -f 4; trap '' XFSZ; exec "$0" "$@"`;
      const child = spawn(
        'bash',
        ['-c', shell, process.execPath, MCA_BIN, '-p', prompt, '--output-format', 'mca-json'],
        {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', HOME: home, ...env(home) },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(1);
      const result = JSON.parse(stdout) as { result: string; is_error: boolean; stop_reason: string };
      expect(result).toMatchObject({ is_error: true, stop_reason: 'error' });
      expect(result.result).toMatch(
        /^The turn failed: cannot write session file .*\.jsonl: the file is larger than the file-size limit allows \(EFBIG\)$/,
      );
      expect(result.result).not.toContain('\n');
      expect(stderr).not.toMatch(/internal error| {4}at /);
    });
  });

  describe('a kill -9 during a compaction', () => {
    it('does not lose the input of the turn that started it', async () => {
      const { root, home } = tempProject('mca-e2e-kill-');
      let summaryStarted: () => void = () => undefined;
      const summaryArrived = new Promise<void>((resolve) => (summaryStarted = resolve));
      const script = agentScript([finish('a', 'one'), finish('b', 'two'), finish('c', 'three')], { text: 'unused' });
      const step: FakeStep = (body, index) => {
        if (systemText(body).includes('You archive finished parts')) {
          summaryStarted();
          return { hang: true };
        }
        return typeof script.step === 'function' ? script.step(body, index) : script.step;
      };
      await serve(Array.from({ length: 6 }, () => step));
      const extra = { MCA_CONTEXT_WINDOW: '20000', MCA_MIN_RETAIN_ROUNDS: '1' };
      for (const word of ['one', 'two', 'three']) {
        const args =
          word === 'one' ? ['-p', `${word} ${'x'.repeat(4_000)}`] : ['-c', '-p', `${word} ${'x'.repeat(4_000)}`];
        expect((await runMca(args, { cwd: root, env: env(home, extra) })).code).toBe(0);
      }
      const killed = runMca(['-c', '-p', `the input that must survive ${'y'.repeat(40_000)}`], {
        cwd: root,
        env: env(home, extra),
        onSpawn: (child) => void summaryArrived.then(() => child.kill('SIGKILL')),
      });
      expect((await killed).signal).toBe('SIGKILL');
      expect(readFileSync(sessionFile(home), 'utf8')).toContain('the input that must survive');
    });
  });
});

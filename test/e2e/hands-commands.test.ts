/**
 * Issue 40, the commands a Claude Code user's hands type, through the built binary: `mca doctor` checks the
 * installation and settings without any model request (it was sent to the model as a paid prompt); `/review`
 * is a built-in prompt that hands the model the current diff.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { finish } from './support/agent-script.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('commands the hands type', () => {
  it('mca doctor prints its checks and makes no model request', async () => {
    const { root, home } = tempProject('mca-e2e-doctor-');
    server = await startFakeAnthropic([finish('never', 'never asked')]);
    const run = await runMca(['doctor'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-doctor-0123456789', ANTHROPIC_BASE_URL: server.url, MCA_HOME: home },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^✓ mca \S+ on Node/m);
    expect(run.stdout).toContain('✓ API key: ANTHROPIC_API_KEY (environment)');
    expect(run.stdout).toContain(`MCA_HOME ${home}`);
    expect(server.requests).toHaveLength(0);
  });

  it('/review sends the model the working tree’s diff with a review prompt', async () => {
    const { root, home } = tempProject('mca-e2e-review-', { 'app.js': 'export const answer = 41;\n' });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'first');
    writeFileSync(join(root, 'app.js'), 'export const answer = 42;\n');
    server = await startFakeAnthropic([finish('done', 'Looks right.')]);
    const run = await runMca(['-p', '/review focus on the constant'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-review-0123456789', ANTHROPIC_BASE_URL: server.url, MCA_HOME: home },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Looks right.\n');
    const prompt = userText(server.requests[0]?.body ?? {});
    expect(prompt).toContain('Review the uncommitted changes');
    expect(prompt).toContain('+export const answer = 42;');
    expect(prompt).toContain('focus on the constant');
  });
});

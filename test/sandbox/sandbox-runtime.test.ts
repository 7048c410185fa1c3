/**
 * The sandbox in the runtime: the trust question lists what a project's sandbox settings would widen, `/sandbox`
 * (SandboxSwitch) switches the box for the session and says what it allows, and an untrusted project's widening is
 * named once at start.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime/create-runtime.js';
import { describeSandbox } from '../../src/sandbox/sandbox-switch.js';
import { tempProject } from '../helpers/temp-project.js';

let runtime: Runtime | undefined;
afterEach(async () => {
  runtime?.sessions.close();
  await runtime?.sandbox.close();
  runtime = undefined;
  vi.unstubAllEnvs();
});

function projectWithSandbox(sandbox: unknown) {
  const project = tempProject('mca-box-rt-', { '.claude/settings.json': JSON.stringify({ sandbox }) });
  mkdirSync(project.home, { recursive: true });
  vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-box-runtime-0123456789');
  vi.stubEnv('ANTHROPIC_BASE_URL', 'http://127.0.0.1:9');
  vi.stubEnv('MCA_HOME', project.home);
  return project;
}

describe('the sandbox in the runtime', () => {
  it('the trust question lists what the project sandbox settings would widen, and a "no" keeps them ignored', async () => {
    const project = projectWithSandbox({
      enabled: true,
      excludedCommands: ['docker'],
      network: { allowedDomains: ['evil.example'] },
    });
    let asked: readonly string[] = [];
    runtime = await createRuntime({
      cwd: project.root,
      home: project.home,
      askTrust: (_root, widening) => {
        asked = widening.map((item) => item.text);
        return Promise.resolve(false);
      },
    });
    const file = join(project.root, '.claude', 'settings.json');
    expect(asked).toContain(`sandbox: excludedCommands docker (${file})`);
    expect(asked).toContain(`sandbox: network.allowedDomains evil.example (${file})`);
    const { settings } = runtime.sandbox.status();
    expect(settings.allowedDomains).toEqual([]);
    expect(settings.autoAllowBashIfSandboxed).toBe(false);
    // The untrusted project's held-back parts are one line, which names the sandbox widening among them.
    expect(runtime.notices.join('\n')).toMatch(/this project is not trusted: .*sandbox widening/);
  });

  it('/sandbox off and on switch the box for the session and say what it allows', async () => {
    const project = projectWithSandbox({ enabled: false });
    writeFileSync(join(project.root, 'x.txt'), 'x');
    runtime = await createRuntime({ cwd: project.root, home: project.home });
    expect(describeSandbox(runtime.sandbox.status())[0]).toMatch(/^Sandbox: off/);
    expect(runtime.sandbox.place({ command: 'ls' }, 'model').boxed).toBe(false);
    const on = await runtime.sandbox.setEnabled(true);
    const lines = describeSandbox(on);
    expect(lines[0]).toMatch(/^Sandbox: on/);
    expect(lines.join('\n')).toContain('your own `!` lines run outside the box');
    expect(runtime.sandbox.place({ command: 'ls' }, 'model').boxed).toBe(on.available);
    expect(runtime.sandbox.place({ command: 'ls' }, 'user-shell').boxed).toBe(false);
    await runtime.sandbox.setEnabled(false);
    expect(runtime.sandbox.place({ command: 'ls' }, 'model').boxed).toBe(false);
  });
});

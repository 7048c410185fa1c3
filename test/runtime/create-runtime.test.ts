/**
 * createRuntime without the CLI: two runtimes in one process, each on its own project directory and its own
 * loopback fake API, keep their sessions, rules and tool lists apart. Asserted from the model's side (what each
 * fake receives) and on disk, never from the runtimes' internals.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionDriver } from '../../src/driver/session-driver.js';
import { createRuntime, type Runtime } from '../../src/runtime/create-runtime.js';
import type { RuntimeOptions } from '../../src/runtime/runtime-options.js';
import { RuntimeError } from '../../src/runtime/runtime-error.js';
import { McaError } from '../../src/errors/mca-error.js';
import { ConfigError } from '../../src/config/config-error.js';
import { SessionError } from '../../src/store/session-error.js';
import {
  startFakeAnthropic,
  systemText,
  userText,
  type FakeAnthropic,
  type FakeRequestBody,
} from '../helpers/fake-anthropic-server.js';
import { act, finish } from '../e2e/support/agent-script.js';
import { tempProject, type TempProject } from '../helpers/temp-project.js';

const opened: Runtime[] = [];
const servers: FakeAnthropic[] = [];
afterEach(async () => {
  for (const runtime of opened.splice(0)) runtime.sessions.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  vi.unstubAllEnvs();
});

/** A runtime whose environment (key, API address, MCA_HOME) is its own: it is read once, at creation. */
async function runtimeOn(project: TempProject, server: FakeAnthropic, options: Omit<RuntimeOptions, 'cwd'> = {}) {
  vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-runtime-0123456789');
  vi.stubEnv('ANTHROPIC_BASE_URL', server.url);
  vi.stubEnv('MCA_HOME', project.home);
  const runtime = await createRuntime({ cwd: project.root, ...options });
  opened.push(runtime);
  return runtime;
}

async function fake(): Promise<FakeAnthropic> {
  const server = await startFakeAnthropic([
    act('make the marker', 'Bash', { command: 'touch made-here' }),
    finish('done', 'finished'),
  ]);
  servers.push(server);
  return server;
}

/** One turn, as a front end runs it: through a session driver (whose decision point applies the runtime's rules). */
async function runTurn(runtime: Runtime, prompt: string): Promise<void> {
  await new SessionDriver({ sessions: runtime.sessions, policy: runtime.policy }).run(prompt);
}

/** Everything a request shows the model: system blocks and message text (memory files, tool results). */
function carried(body: FakeRequestBody): string {
  return `${systemText(body)}\n${userText(body)}`;
}

function toolNames(body: FakeRequestBody): string[] {
  const tools = (body as { tools?: Array<{ name: string }> }).tools;
  return (tools ?? []).map((tool) => tool.name);
}

describe('createRuntime', () => {
  it('keeps two runtimes in one process apart: sessions, memory, rules and tools', async () => {
    const first = tempProject('mca-runtime-a-', {
      'CODE_LAW.md': 'Law of project Alpha: indent with tabs.\n',
      '.mca/settings.json': JSON.stringify({ permissions: { deny: ['Bash(touch:*)'] } }),
    });
    const second = tempProject('mca-runtime-b-', { 'CODE_LAW.md': 'Law of project Beta: indent with spaces.\n' });
    const [apiA, apiB] = [await fake(), await fake()];
    const alpha = await runtimeOn(first, apiA, { permissionMode: 'bypassPermissions', toolProtocol: 'native' });
    const beta = await runtimeOn(second, apiB, { permissionMode: 'bypassPermissions', toolProtocol: 'text' });

    await Promise.all([runTurn(alpha, 'make the marker'), runTurn(beta, 'make the marker')]);

    const [alphaFirst, alphaNext] = apiA.requests.map((request) => request.body);
    const [betaFirst, betaNext] = apiB.requests.map((request) => request.body);
    if (!alphaFirst || !alphaNext || !betaFirst || !betaNext) throw new Error('each fake expected two requests');
    // Each model sees its own project's memory file, never the other's.
    expect(carried(alphaFirst)).toContain('Law of project Alpha');
    expect(carried(alphaFirst)).not.toContain('Law of project Beta');
    expect(carried(betaFirst)).toContain('Law of project Beta');
    expect(carried(betaFirst)).not.toContain('Law of project Alpha');
    // Its own tool list: Alpha's requests carry the native tool definitions, Beta (text protocol) carries none.
    expect(toolNames(alphaFirst)).toEqual(expect.arrayContaining(['Bash', 'Read', 'Edit']));
    expect(toolNames(betaFirst)).toEqual([]);
    // Its own rules: Alpha's deny rule refused the command, Beta (no such rule) ran it in its own directory.
    // (The messages only: the system prompt names the error codes.)
    expect(userText(alphaNext)).toContain('PERMISSION_DENIED');
    expect(existsSync(join(first.root, 'made-here'))).toBe(false);
    expect(userText(betaNext)).not.toContain('PERMISSION_DENIED');
    expect(userText(betaNext)).toContain('Observation: (no output)');
    expect(existsSync(join(second.root, 'made-here'))).toBe(true);
    // Its own session, stored under its own project.
    expect(alpha.controller.sessionId).not.toBe(beta.controller.sessionId);
    expect((await alpha.sessions.listSessions()).map((info) => info.id)).toEqual([alpha.controller.sessionId]);
    expect((await beta.sessions.listSessions()).map((info) => info.id)).toEqual([beta.controller.sessionId]);
  });

  it('reports failures as typed errors, before any session file exists', async () => {
    const project = tempProject('mca-runtime-errors-', { 'a-file.txt': 'x' });
    const api = await fake();
    const notDirectory = runtimeOn({ ...project, root: join(project.root, 'a-file.txt') }, api);
    await expect(notDirectory).rejects.toBeInstanceOf(RuntimeError);
    await expect(notDirectory).rejects.toMatchObject({ code: 'PROJECT_NOT_DIRECTORY' });

    vi.stubEnv('MCA_CONTEXT_WINDOW', 'lots');
    const badConfig = runtimeOn(project, api);
    await expect(badConfig).rejects.toBeInstanceOf(ConfigError);
    vi.unstubAllEnvs();

    const missing = runtimeOn(project, api, { session: { kind: 'resume', sessionId: 'abcdef12' } });
    await expect(missing).rejects.toBeInstanceOf(SessionError);
    await expect(missing).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    await expect(missing).rejects.toSatisfy((error: unknown) => McaError.isInstance(error));
    expect(existsSync(join(project.home, 'projects'))).toBe(false);
  });
});

/**
 * The third red-team round's hangs and name classes through the built binary (issue 43): an MCP tool schema with a
 * catastrophic `pattern` (class 3), WebFetch of deeply nested HTML (4), a rule `mcp__github` against a server
 * named `github__docs` (6), a helper an MCP server detaches (10). Each run has a bounded harness timeout that
 * kills the child: on the old build, 3 and 4 end only by that SIGKILL and 10 by it or with a leftover process.
 * `MCA_E2E_BIN` runs the same tests against another build (e.g. /work/main/dist/cli/mca.cjs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { listenLoopback, type LoopbackServer } from '../helpers/loopback-http.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject, type TempProject } from '../helpers/temp-project.js';
import { processesMatching } from './support/processes.js';

const KEY = 'sk-ant-test-round-three-0123456789';
const SERVER = fileURLToPath(new URL('../fixtures/mcp/round-three-server.mjs', import.meta.url));
const ENTRY = process.env.MCA_E2E_BIN;

let fake: FakeAnthropic | undefined;
let target: LoopbackServer | undefined;
afterEach(async () => {
  await fake?.close();
  await target?.close();
  fake = undefined;
  target = undefined;
});

const call = (name: string, input: unknown): FakeStep => ({ text: 'calling', calls: [{ name, input }] });
const done: FakeStep = { text: 'done' };

async function run(project: TempProject, script: FakeStep[], args: string[], env: Record<string, string> = {}) {
  fake = await startFakeAnthropic(script);
  return runMca(['-p', 'go', '--output-format', 'json', ...args], {
    cwd: project.root,
    env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url, MCA_HOME: project.home, ...env },
    timeoutMs: 40_000,
    ...(ENTRY ? { entry: ENTRY } : {}),
  });
}

/** The tool_result the request after step `index` carries, as text. */
function resultAfter(index: number): string {
  const body = fake?.requests[index + 1]?.body as { messages?: Array<{ content: unknown }> } | undefined;
  return JSON.stringify(body?.messages?.at(-1)?.content ?? '');
}

const servers = (entries: Record<string, unknown>): string => JSON.stringify({ mcpServers: entries });
const server = (mode: string, env: Record<string, string> = {}) => ({
  command: process.execPath,
  args: [SERVER, mode],
  env,
});

describe('an MCP tool schema with a catastrophic pattern (class 3)', () => {
  for (const [label, input] of [
    ['nested quantifier', { s: `${'a'.repeat(48)}!` }],
    ['a long valid word', { s: 'a'.repeat(5000) }],
  ] as const) {
    it(`${label}: the call is checked in linear time and the run ends`, async () => {
      const project = tempProject('mca-r3-redos-');
      const result = await run(
        project,
        [call('mcp__evil__match', input), done],
        ['--mcp-config', servers({ evil: server('redos') }), '--allowedTools', 'mcp__evil'],
      );
      expect(result.signal, 'mca hung validating the input and was killed').toBeNull();
      expect(result.code, result.stderr).toBe(0);
      const told = resultAfter(0);
      if (input.s.endsWith('!')) {
        expect(told).toContain('INVALID_PARAM');
        expect(told).toContain('must match pattern');
      } else expect(told).toContain('worked');
    }, 60_000);
  }
});

describe("an MCP tool's output schema with a catastrophic pattern (class 3, the result side)", () => {
  it('the structured result is checked in linear time and the run ends', async () => {
    const project = tempProject('mca-r3-redos-out-');
    const result = await run(
      project,
      [call('mcp__evil__report', {}), done],
      ['--mcp-config', servers({ evil: server('redos-out') }), '--allowedTools', 'mcp__evil'],
    );
    expect(result.signal, 'mca hung validating the result and was killed').toBeNull();
    expect(result.code, result.stderr).toBe(0);
    // The library checks a structured result only against schemas it cached from a listing mca does not cache
    // today; should it check, the check is linear (src/mcp/linear-schema-validator.ts). Either way the run ends.
    expect(resultAfter(0)).toMatch(/worked|must match pattern/);
  }, 60_000);
});

describe('WebFetch of deeply nested HTML (class 4)', () => {
  for (const [label, html] of [
    ['20,000 nested blockquotes', '<blockquote>'.repeat(20_000) + 'x'],
    ['nested quotes with attributes and text', '<BLOCKQUOTE class="q">\n  q '.repeat(16_000) + 'x'],
  ] as const) {
    it(`${label}: the conversion stops at the deadline with a clear error, and mca answers`, async () => {
      target = await listenLoopback(
        'nested-html',
        async (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(`<html><body>${html}</body></html>`);
          await Promise.resolve();
        },
        (res) => res.end(),
      );
      const project = tempProject('mca-r3-html-');
      const result = await run(
        project,
        [call('WebFetch', { url: `http://127.0.0.1:${target.port}/deep`, prompt: 'p' }), done],
        ['--allowedTools', 'WebFetch(domain:127.0.0.1)'],
        { MCA_WEBFETCH_PRIVATE_HOSTS: '127.0.0.1', MCA_TOOL_DEADLINE_MS: '3000' },
      );
      expect(result.signal, 'mca froze converting the page and was killed').toBeNull();
      expect(result.code, result.stderr).toBe(0);
      const told = resultAfter(0);
      // Either the deadline stopped it or the converter gave up on the depth: a clear error, never a hang.
      expect(told).toMatch(/TIMEOUT|could not convert the page/);
    }, 60_000);
  }
});

describe('MCP rules match whole server names (class 6)', () => {
  for (const name of ['github__docs', 'github_']) {
    it(`mcp__github does not allow the tools of a server named "${name}"`, async () => {
      const project = tempProject('mca-r3-names-');
      const result = await run(
        project,
        [call(`mcp__github__docs__work`, {}), call('mcp__github___work', {}), done],
        ['--mcp-config', servers({ [name]: server('plain') }), '--allowedTools', 'mcp__github'],
      );
      expect(result.code, result.stderr).toBe(0);
      const body = fake?.requests[0]?.body as { tools?: Array<{ name: string }> } | undefined;
      const names = (body?.tools ?? []).map((tool) => tool.name).filter((tool) => tool.startsWith('mcp__'));
      expect(names).toHaveLength(1);
      expect(names[0]?.startsWith('mcp__github__')).toBe(false);
      expect(resultAfter(0) + resultAfter(1)).not.toContain('worked');
    }, 60_000);
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('a helper an MCP server detaches (class 10)', () => {
  it('a double-forked helper (re-parented to init at once) ends with mca too', async () => {
    const project = tempProject('mca-r3-detach2-');
    const result = await run(project, [done], ['--mcp-config', servers({ spawner: server('detach2') })]);
    expect(result.signal, 'mca did not exit after its answer and was killed').toBeNull();
    expect(result.code, result.stderr).toBe(0);
    const left = processesMatching('r3-helper', project.root);
    for (const info of left) process.kill(info.pid, 'SIGKILL');
    expect(left, 'a helper outlived mca').toEqual([]);
  }, 60_000);

  it('mca -p exits after its answer and leaves no helper running', async () => {
    const project = tempProject('mca-r3-detach-');
    const pidFile = join(project.root, 'helper.pid');
    const result = await run(
      project,
      [done],
      ['--mcp-config', servers({ spawner: server('detach', { HELPER_PID_FILE: pidFile }) })],
    );
    const helper = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined;
    try {
      expect(result.signal, 'mca did not exit after its answer and was killed').toBeNull();
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ result: 'done' });
      expect(helper).toBeGreaterThan(0);
      expect(alive(helper ?? 0), 'the detached helper outlived mca').toBe(false);
    } finally {
      if (helper && alive(helper)) process.kill(helper, 'SIGKILL');
    }
  }, 60_000);
});

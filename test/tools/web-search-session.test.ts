/**
 * The WebSearch permission is a session's, like every "yes, don't ask again this session" answer (the driver
 * installs a fresh decision point on `/clear` and `/resume`): real sessions (ProjectSessions, the Anthropic
 * provider against the loopback fake API, native tool use) with the WebSearch gate. After the person says yes the
 * next request carries the server tool; a new session offers the client gate again and the next call is asked
 * again. An allow rule keeps the search on in every session.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { CodeAgent } from '../../src/loop/code-agent.js';
import { ProjectSessions } from '../../src/loop/session-manager.js';
import { loadConfig } from '../../src/config/config.js';
import { createDecisionPoint } from '../../src/driver/decision-point.js';
import { AnthropicProvider } from '../../src/providers/anthropic.js';
import { SessionStore } from '../../src/store/session-store.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import type { ApprovalRequest } from '../../src/tools/registry/tool-context.js';
import { createWebSearchTool, WebSearchGate } from '../../src/tools/web/web-search.js';
import { drain } from '../helpers/agent-harness.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';

let api: FakeAnthropic | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const SEARCH = { query: 'node 22', results: [{ title: 'Node 22', url: 'https://nodejs.org/' }] };
const CALL: FakeStep = { text: '', calls: [{ name: 'WebSearch', input: { query: 'node 22' } }] };

async function sessions(script: FakeStep[], gate: WebSearchGate) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-websearch-session-')));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const projectRoot = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(projectRoot);
  api = await startFakeAnthropic(script);
  const config = loadConfig({ cwd: projectRoot, env: { MCA_HOME: home, MCA_TOOL_PROTOCOL: 'native' } });
  const registry = createDefaultRegistry().register(createWebSearchTool(gate));
  const provider = new AnthropicProvider({ apiKey: 'sk-ant-test-session', baseUrl: api.url, maxRetries: 0 });
  const store = new SessionStore(home, projectRoot);
  const manager = new ProjectSessions({ config, provider, registry, store, projectRoot, webSearch: gate });
  const asked: string[] = [];
  const judge = (agent: CodeAgent): CodeAgent => {
    const ask = (request: ApprovalRequest) => {
      asked.push(request.title);
      return Promise.resolve({ approved: true as const });
    };
    agent.setDecisionPoint(createDecisionPoint({ mode: () => 'default', broker: { ask, cancel: () => undefined } }));
    return agent;
  };
  const first = judge((await manager.open({ kind: 'new' })).controller);
  const turn = (agent: CodeAgent, input: string) => drain(agent.run(input, { signal: new AbortController().signal }));
  return { manager, asked, judge, first, turn };
}

type Tool = { name?: string; type?: string };
function offered(index: number): { gate: boolean; server: boolean } {
  const tools = (api?.requests[index]?.body.tools ?? []) as Tool[];
  return {
    gate: tools.some((tool) => tool.name === 'WebSearch'),
    server: tools.some((tool) => tool.type === 'web_search_20250305'),
  };
}

describe('the WebSearch permission across sessions', () => {
  it('a yes holds for its session; a new session (/clear) asks again', async () => {
    const gate = new WebSearchGate(true);
    const run = await sessions(
      [CALL, { text: 'Found it.', webSearch: SEARCH }, CALL, { text: 'Found it again.', webSearch: SEARCH }],
      gate,
    );
    await run.turn(run.first, 'search node 22');
    expect(run.asked).toEqual(['WebSearch(node 22)']);
    expect(offered(0)).toEqual({ gate: true, server: false });
    expect(offered(1)).toEqual({ gate: false, server: true });

    const next = run.judge(await run.manager.newSession());
    await run.turn(next, 'search node 22 again');
    expect(offered(2)).toEqual({ gate: true, server: false });
    expect(run.asked).toEqual(['WebSearch(node 22)', 'WebSearch(node 22)']);
    expect(offered(3)).toEqual({ gate: false, server: true });
  });

  it('with an allow rule the search is on in every session and nothing is asked', async () => {
    const gate = new WebSearchGate(true);
    gate.allowByRule();
    const run = await sessions(
      [
        { text: 'One.', webSearch: SEARCH },
        { text: 'Two.', webSearch: SEARCH },
      ],
      gate,
    );
    await run.turn(run.first, 'search');
    const next = run.judge(await run.manager.newSession());
    await run.turn(next, 'search again');
    expect(offered(0)).toEqual({ gate: false, server: true });
    expect(offered(1)).toEqual({ gate: false, server: true });
    expect(run.asked).toEqual([]);
  });
});

/**
 * An in-process mca for loop tests: real tools, context engine and session store in a temp project, with a
 * ScriptedProvider in place of the model.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CodeAgent } from '../../src/loop/code-agent.js';
import type { AgentEvent } from '../../src/loop/events.js';
import { ProjectSessions } from '../../src/loop/session-manager.js';
import type { SessionStart } from '../../src/loop/session-manager.js';
import { loadConfig } from '../../src/config/config.js';
import type { Config } from '../../src/config/config.js';
import type { ModelRequest } from '../../src/providers/types.js';
import { SessionStore } from '../../src/store/session-store.js';
import { createDefaultRegistry, type ToolRegistry } from '../../src/tools/registry/registry.js';
import { createDecisionPoint } from '../../src/driver/decision-point.js';
import type { PermissionBroker, UserDecision } from '../../src/driver/permission-broker.js';
import type { ApprovalRequest } from '../../src/tools/registry/tool-context.js';
import { ScriptedProvider } from './scripted-provider.js';
import type { ScriptedStep } from './scripted-provider.js';
import { onTestFinished } from 'vitest';

export interface Harness {
  projectRoot: string;
  mcaHome: string;
  config: Config;
  provider: ScriptedProvider;
  store: SessionStore;
  sessions: ProjectSessions;
  /** The session's tool registry: tests add and remove tools on it while the session runs. */
  registry: ToolRegistry;
  agent: CodeAgent;
  /** Runs one turn to its end and returns every event. */
  turn(input: string, signal?: AbortSignal): Promise<AgentEvent[]>;
  /** Re-opens the session from disk, as `mca -c` would. */
  reopen(start?: SessionStart): Promise<CodeAgent>;
  /** Who answers the session's permission questions from now on (none: nobody can, as in `-p`). */
  setBroker(ask?: PersonAnswer): void;
  write(relativePath: string, content: string): void;
}

/** How a test answers a permission question. */
export type PersonAnswer = (request: ApprovalRequest) => Promise<UserDecision>;

/** Installs the session driver's decision point on `agent`, as the driver does: the agent's mode, no rules. */
export function judgeCalls(agent: CodeAgent, ask?: PersonAnswer): void {
  const broker: PermissionBroker | undefined = ask ? { ask, cancel: () => undefined } : undefined;
  agent.setDecisionPoint(createDecisionPoint({ mode: () => agent.permissionMode, broker }));
}

export function userText(request: ModelRequest | undefined): string {
  return (request?.user ?? []).map((segment) => segment.text).join('\n');
}

export function systemText(request: ModelRequest | undefined): string {
  return (request?.system ?? []).map((segment) => segment.text).join('\n');
}

export async function drain(events: AsyncGenerator<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

export function lastTurnEnd(events: AgentEvent[]): Extract<AgentEvent, { type: 'turn_end' }> {
  const end = events.findLast((event) => event.type === 'turn_end');
  if (!end || end.type !== 'turn_end') throw new Error('no turn_end event');
  return end;
}

export async function createHarness(
  steps: ScriptedStep[],
  options: { env?: Record<string, string>; files?: Record<string, string>; ask?: PersonAnswer } = {},
): Promise<Harness> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-agent-')));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const projectRoot = join(base, 'project');
  const mcaHome = join(base, 'home');
  mkdirSync(projectRoot);
  const write = (relativePath: string, content: string) => {
    const target = join(projectRoot, relativePath);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  };
  for (const [path, content] of Object.entries(options.files ?? {})) write(path, content);
  const config = loadConfig({
    cwd: projectRoot,
    env: { MCA_HOME: mcaHome, MCA_PERMISSION_MODE: 'bypassPermissions', MCA_TOOL_PROTOCOL: 'text', ...options.env },
  });
  const provider = new ScriptedProvider(steps);
  const store = new SessionStore(mcaHome, projectRoot);
  const registry = createDefaultRegistry();
  const sessions = new ProjectSessions({
    config,
    provider,
    registry,
    store,
    projectRoot,
  });
  let ask = options.ask;
  const harness: Harness = {
    projectRoot,
    mcaHome,
    config,
    provider,
    store,
    sessions,
    registry,
    agent: (await sessions.open({ kind: 'new' })).controller,
    setBroker: (next) => {
      ask = next;
      judgeCalls(harness.agent, ask);
    },
    turn: (input, signal) => drain(harness.agent.run(input, { signal: signal ?? new AbortController().signal })),
    reopen: async (start = { kind: 'continue' }) => {
      harness.agent.close();
      harness.agent = (await sessions.open(start)).controller;
      judgeCalls(harness.agent, ask);
      return harness.agent;
    },
    write,
  };
  judgeCalls(harness.agent, ask);
  return harness;
}

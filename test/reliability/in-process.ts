/**
 * Drives a sandbox's sessions in-process with the scripted provider: the same composition `mca -c` uses
 * (config, SessionStore, ProjectSessions, the real tools) minus the network, so checks that a session continues
 * cost no extra process start.
 */
import type { AgentEvent } from '../../src/loop/events.js';
import { ProjectSessions } from '../../src/loop/session-manager.js';
import { loadConfig } from '../../src/config/config.js';
import { SessionStore } from '../../src/store/session-store.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { judgeCalls } from '../helpers/agent-harness.js';
import { ScriptedProvider, type ScriptedStep } from '../helpers/scripted-provider.js';
import { API_KEY, type Sandbox } from './harness.js';

export interface Turn {
  prompt: string;
  replies: ScriptedStep[];
}

export interface TurnsResult {
  warnings: string[];
  ends: Array<Extract<AgentEvent, { type: 'turn_end' }>>;
  sessionId: string;
}

/** Continues the sandbox's latest session (or starts one) and runs `turns` in it, as `mca -c` would. */
export async function continueTurns(
  sandbox: Sandbox,
  turns: readonly Turn[],
  env: Record<string, string> = {},
): Promise<TurnsResult> {
  const config = loadConfig({
    cwd: sandbox.project,
    env: { MCA_HOME: sandbox.home, MCA_TOOL_PROTOCOL: 'text', ...env },
  });
  const provider = new ScriptedProvider(turns.flatMap((turn) => turn.replies));
  const store = new SessionStore(sandbox.home, sandbox.project, { secrets: [API_KEY] });
  const sessions = new ProjectSessions({
    config,
    provider,
    registry: createDefaultRegistry(),
    store,
    projectRoot: sandbox.project,
  });
  const { controller, warnings } = await sessions.open({ kind: 'continue' });
  judgeCalls(controller);
  const ends: TurnsResult['ends'] = [];
  try {
    for (const turn of turns) {
      for await (const event of controller.run(turn.prompt, { signal: new AbortController().signal })) {
        if (event.type === 'turn_end') ends.push(event);
      }
    }
  } finally {
    sessions.close();
  }
  return { warnings, ends, sessionId: controller.sessionId };
}

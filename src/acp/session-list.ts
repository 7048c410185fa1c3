/** `session/list`: the stored sessions of one project directory (the session store's list), newest first. */
import type { SessionInfo } from '@agentclientprotocol/sdk';
import { projectRootOf } from '../runtime/project-root.js';
import { SessionStore } from '../store/session-store.js';

export async function listSessions(mcaHome: string, cwd: string): Promise<SessionInfo[]> {
  let projectRoot: string;
  try {
    projectRoot = projectRootOf(cwd);
  } catch {
    return [];
  }
  const stored = await new SessionStore(mcaHome, projectRoot).list();
  return stored
    .filter((session) => session.messages > 0)
    .map((session) => ({
      sessionId: session.id,
      cwd: projectRoot,
      title: session.title,
      updatedAt: session.updatedAt,
    }));
}

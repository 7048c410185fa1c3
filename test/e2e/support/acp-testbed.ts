/**
 * What the ACP e2e files that drive mca with the SDK editor share: the mca children and editors a test starts and
 * the fake model it serves, all ended after each test (editors closed, children killed, the server closed), and
 * mca's environment for a test (the file's key, the fake model's URL, a home of its own).
 */
import { afterEach } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../helpers/fake-anthropic-server.js';
import type { AcpChild } from './acp-client.js';
import type { Editor } from './acp-editor.js';

export interface AcpTestbed {
  /** The mca processes the running test spawned (killed after it). */
  children: AcpChild[];
  /** The editors the running test connected (closed after it). */
  editors: Editor[];
  /** Starts the fake model for the running test (closed after it). */
  serve(...args: Parameters<typeof startFakeAnthropic>): Promise<FakeAnthropic>;
  /** mca's environment: the key, the fake model at `url`, `home` as MCA_HOME and HOME, then `extra`. */
  env(home: string, url: string, extra?: Record<string, string>): Record<string, string>;
}

/** Call once at the top of a test file: registers the cleanup with the file's `afterEach`. */
export function acpTestbed(key: string): AcpTestbed {
  const children: AcpChild[] = [];
  const editors: Editor[] = [];
  let server: FakeAnthropic | undefined;
  afterEach(async () => {
    for (const editor of editors.splice(0)) editor.close();
    for (const child of children.splice(0)) child.child.kill('SIGKILL');
    await server?.close();
    server = undefined;
  });
  return {
    children,
    editors,
    serve: async (...args) => (server = await startFakeAnthropic(...args)),
    env: (home, url, extra = {}) => ({
      ANTHROPIC_API_KEY: key,
      ANTHROPIC_BASE_URL: url,
      MCA_HOME: home,
      HOME: home,
      ...extra,
    }),
  };
}

/**
 * What every REPL tmux test file needs: a scripted fake API (agent replies in order, summary requests answered
 * apart), the REPL launched against it, and everything closed after each test.
 */
import { afterEach } from 'vitest';
import { startFakeAnthropic } from '../../helpers/fake-anthropic-server.js';
import type { FakeReplyStep } from '../../helpers/fake-anthropic-server.js';
import { agentScript, type AgentScript } from './agent-script.js';
import { launchRepl, type LaunchOptions, type ReplLaunch } from './repl-launch.js';
import type { TmuxSession } from './tmux.js';

const SUMMARY: FakeReplyStep = { text: '## 📌 Archived Session Summary\nnothing' };

export interface ReplHarness {
  /** Runs after the current test (last registered first). */
  defer(cleanup: () => Promise<void> | void): void;
  /** A fake API answering agent requests with `replies` in order. */
  fake(replies: FakeReplyStep[]): Promise<{ script: AgentScript; url: string }>;
  /** A fake API and the REPL against it, waited for until its input box shows. */
  start(
    replies: FakeReplyStep[],
    options?: LaunchOptions & { clipboard?: boolean },
  ): Promise<{ script: AgentScript; repl: ReplLaunch; term: TmuxSession }>;
}

/** Call once at the top of a test file. */
export function replHarness(): ReplHarness {
  let cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups = [];
  });
  const defer = (cleanup: () => Promise<void> | void): void => void cleanups.push(cleanup);
  const fake = async (replies: FakeReplyStep[]) => {
    const script = agentScript(replies, SUMMARY);
    const server = await startFakeAnthropic([script.step], { loop: true });
    defer(() => server.close());
    return { script, url: server.url };
  };
  const start: ReplHarness['start'] = async (replies, options = {}) => {
    const { script, url } = await fake(replies);
    const repl = await launchRepl(url, options);
    defer(() => repl.cleanup());
    if (options.clipboard) repl.term.allowClipboard();
    await repl.term.waitFor('Ask anything', { what: 'the REPL input box' });
    return { script, repl, term: repl.term };
  };
  return { defer, fake, start };
}

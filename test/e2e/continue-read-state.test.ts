/**
 * `mca -p -c` continues a session that read a file in its earlier run: an Edit of that file goes ahead without a new
 * Read (as it would have in one run), while a file changed on disk after that run must be read again first. Through
 * the built binary against the loopback fake API, from the model's side (the Edit's result in the next request) and
 * the user's (the file on disk).
 */
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFakeAnthropic, userText } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakePlainStep, FakeRequestBody } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { act, finish, isSummaryRequest } from './support/agent-script.js';

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs `-p` for the first prompt, then `-c -p` for the second, against one scripted fake; returns agent requests. */
async function twoRuns(root: string, home: string, replies: FakePlainStep[], between?: () => void) {
  const agentRequests: FakeRequestBody[] = [];
  const step = (body: FakeRequestBody): FakePlainStep => {
    if (isSummaryRequest(body)) return { status: 500, message: 'no summary expected' };
    agentRequests.push(body);
    return replies.shift() ?? { status: 500, message: 'no reply left' };
  };
  server = await startFakeAnthropic(Array.from({ length: 8 }, () => step));
  const env = {
    ANTHROPIC_API_KEY: 'sk-ant-test-continue-read-state',
    ANTHROPIC_BASE_URL: server.url,
    MCA_HOME: home,
    MCA_PERMISSION_MODE: 'bypassPermissions',
    MCA_TOOL_PROTOCOL: 'text',
  };
  const first = await runMca(['-p', 'read the notes'], { cwd: root, env });
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  between?.();
  const second = await runMca(['-c', '-p', 'now change alpha to gamma'], { cwd: root, env });
  expect(second.stderr).toBe('');
  expect(second.code).toBe(0);
  return agentRequests;
}

const script = (): FakePlainStep[] => [
  act('look', 'Read', { path: 'notes.txt' }),
  finish('done', 'read the notes'),
  act('edit', 'Edit', { path: 'notes.txt', old_string: 'alpha', new_string: 'gamma' }),
  finish('done', 'edited'),
];

it('an Edit in a continued session needs no new Read of a file the earlier run read', async () => {
  const { root, home } = tempProject('mca-e2e-continue-read-', { 'notes.txt': 'alpha\nbeta\n' });
  const requests = await twoRuns(root, home, script());
  const afterEdit = userText(requests[3] ?? {});
  expect(afterEdit).not.toContain('has not been read in this session');
  expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('gamma\nbeta\n');
});

it('a file changed on disk after the earlier run must be read again before an Edit', async () => {
  const { root, home } = tempProject('mca-e2e-continue-stale-', { 'notes.txt': 'alpha\nbeta\n' });
  const requests = await twoRuns(root, home, script(), () => {
    const path = join(root, 'notes.txt');
    writeFileSync(path, 'alpha\nbeta\nchanged by the user\n');
    const later = new Date(Date.now() + 60_000);
    utimesSync(path, later, later);
  });
  const afterEdit = userText(requests[3] ?? {});
  expect(afterEdit).toContain('has not been read in this session');
  expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\nchanged by the user\n');
});

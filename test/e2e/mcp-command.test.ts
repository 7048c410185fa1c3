/**
 * `mca mcp list|get|add|add-json|remove` through the built binary: the files each scope writes, what `list` reports
 * (a connected server with its tool count, a project server an untrusted project may not start), and that a server
 * added to the local scope is used by the next `-p` run.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const HOSTILE = fileURLToPath(new URL('../fixtures/mcp/hostile-server.mjs', import.meta.url));
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function setup() {
  const project = tempProject('mca-mcp-cmd-');
  const userHome = join(dirname(project.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  const env = { MCA_HOME: project.home, HOME: userHome, ANTHROPIC_API_KEY: 'sk-ant-test-mcp-cmd-0123456789' };
  const mca = (args: string[], extra: Record<string, string> = {}) =>
    runMca(args, { cwd: project.root, env: { ...env, ...extra }, timeoutMs: 60_000 });
  return { ...project, env, mca };
}

describe('mca mcp', () => {
  it('add (local, user, project), add-json, get, list and remove write and read the right files', async () => {
    const { root, home, mca } = setup();
    const added = await mca(['mcp', 'add', '-e', 'TOKEN=abc', 'work', '--', process.execPath, HOSTILE, 'work']);
    expect(added.code, added.stderr).toBe(0);
    const web = await mca([
      'mcp',
      'add',
      '-s',
      'user',
      '-t',
      'http',
      'web',
      'http://127.0.0.1:9/mcp',
      '-H',
      'Authorization: Bearer t',
    ]);
    expect(web.code, web.stderr).toBe(0);
    const proj = await mca([
      'mcp',
      'add-json',
      '-s',
      'project',
      'proj',
      JSON.stringify({ command: 'node', args: ['x.js'] }),
    ]);
    expect(proj.code, proj.stderr).toBe(0);

    const mine = JSON.parse(readFileSync(join(home, 'mcp.json'), 'utf8'));
    expect(mine.projects[root].mcpServers.work).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [HOSTILE, 'work'],
      env: { TOKEN: 'abc' },
    });
    expect(mine.mcpServers.web).toEqual({
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer t' },
    });
    expect(statSync(join(home, 'mcp.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(root, '.mcp.json'), 'utf8')).mcpServers.proj).toEqual({
      command: 'node',
      args: ['x.js'],
    });

    const got = await mca(['mcp', 'get', 'web']);
    expect(got.stdout).toContain('url: http://127.0.0.1:9/mcp');
    expect(got.stdout).toContain('headers: Authorization (values not shown)');
    expect(got.stdout).not.toContain('Bearer t');

    const listed = await mca(['mcp', 'list'], { MCP_TIMEOUT: '3000' });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/work \(local\): .* ✓ connected, 1 tool\(s\)/);
    expect(listed.stdout).toMatch(/proj \(project\): node x\.js - · untrusted/);
    expect(listed.stdout).toMatch(/web \(user\): http http:\/\/127\.0\.0\.1:9\/mcp - ✗ failed/);

    const duplicate = await mca(['mcp', 'add', 'work', '--', 'node']);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('already exists in the local scope');
    const removed = await mca(['mcp', 'remove', 'work']);
    expect(removed.code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, 'mcp.json'), 'utf8')).projects[root].mcpServers).toEqual({});
    const missing = await mca(['mcp', 'remove', 'work']);
    expect(missing.code).not.toBe(0);
    const bad = await mca(['mcp', 'add-json', 'x', '{"type":"ws"}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown "type"');
  });

  it('a server added with mca mcp add is used by the next -p run', async () => {
    const { mca } = setup();
    expect((await mca(['mcp', 'add', 'work', '--', process.execPath, HOSTILE, 'work'])).code).toBe(0);
    fake = await startFakeAnthropic([
      { text: 'calling', calls: [{ name: 'mcp__work__work', input: {} }] },
      { text: 'done' },
    ]);
    const run = await mca(['-p', 'go', '--allowedTools', 'mcp__work'], { ANTHROPIC_BASE_URL: fake.url });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(fake.requests[1]?.body.messages?.at(-1) ?? '')).toContain('worked');
  });
});

/**
 * Checkpoints in added directories (`--add-dir`) against a hostile journal and a large added directory: a change
 * record planted for a path outside the project and every recorded root is listed as not restorable and nothing
 * is written there; the scan's file limit is shared by the project and the added directories, so a directory that
 * does not fit is named at rewind time while the project's changes are still restored.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ProjectCheckpoints } from '../../src/checkpoints/project-checkpoints.js';
import { limitsFromEnv } from '../../src/checkpoints/limits.js';
import { SessionStore } from '../../src/store/session-store.js';
import { bashTool } from '../../src/tools/processes/bash.js';
import { writeTool } from '../../src/tools/editing/write.js';
import type { ToolDefinition } from '../../src/tools/registry/define-tool.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(): { root: string; home: string; extra: string; outside: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-checkpoints-added-')));
  dirs.push(base);
  const [root, extra, outside] = ['project', 'extra', 'outside'].map((name) => join(base, name));
  for (const dir of [root, extra, outside]) mkdirSync(dir ?? '');
  return { root: root ?? '', home: join(base, 'home'), extra: extra ?? '', outside: outside ?? '' };
}

async function session(root: string, home: string, extra: string, limits = {}) {
  const store = new SessionStore(home, root);
  const writer = await store.create('m');
  const checkpoints = new ProjectCheckpoints(store, store.projectRoot, { ...limitsFromEnv({}), ...limits }, [], () => [
    extra,
  ]);
  writer.appendMessage({ role: 'user', content: 'go', metadata: { round: 1, ts: new Date().toISOString() } });
  await new Promise((resolve) => setTimeout(resolve, 3));
  return { checkpoints, id: writer.sessionId };
}

async function run(checkpoints: ProjectCheckpoints, id: string, tool: ToolDefinition, input: Record<string, unknown>) {
  const after = await checkpoints.beforeRun(
    id,
    { id: `toolu_${Math.random().toString(16).slice(2)}`, name: tool.name, input, source: 'model' },
    tool,
    new AbortController().signal,
  );
  return async () => {
    await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
  };
}

it('a change record planted for a path outside every recorded root is not restored, nothing written there', async () => {
  const { root, home, extra, outside } = temp();
  const { checkpoints, id } = await session(root, home, extra);
  const target = join(extra, 'a.txt');
  const done = await run(checkpoints, id, writeTool as ToolDefinition, { path: target, content: 'new\n' });
  writeFileSync(target, 'new\n');
  await done();
  // A damaged or hostile journal line: "before, this file outside did not exist" (a restore would delete it).
  const victim = join(outside, 'keep.txt');
  writeFileSync(victim, 'precious\n');
  await (
    await checkpoints.session(id)
  ).journal.append({
    t: 'change',
    ts: new Date().toISOString(),
    path: victim,
    before: { kind: 'absent' },
    tool: 'Write',
  });
  const [checkpoint] = await checkpoints.listCheckpoints(id);
  const result = await checkpoints.rewind(id, checkpoint?.id ?? '', { code: true, conversation: false });
  expect(result.applied?.restored).toEqual([target]);
  expect(existsSync(target)).toBe(false);
  expect(result.plan.notRestorable.map((item) => item.path)).toEqual([victim]);
  expect(result.plan.notRestorable[0]?.reason).toMatch(/outside the project root/);
  expect(readFileSync(victim, 'utf8')).toBe('precious\n');
});

it('shares the file limit with the added directories: one that does not fit is named, the project still restored', async () => {
  const { root, home, extra } = temp();
  for (let index = 0; index < 3; index += 1) writeFileSync(join(root, `p${index}.txt`), `p${index}\n`);
  for (let index = 0; index < 5; index += 1) writeFileSync(join(extra, `e${index}.txt`), `e${index}\n`);
  const { checkpoints, id } = await session(root, home, extra, { maxFiles: 6 });
  const command = `echo changed > p0.txt && echo changed > ${extra}/e0.txt`;
  const done = await run(checkpoints, id, bashTool as ToolDefinition, { command });
  execFileSync('bash', ['-c', command], { cwd: root });
  await done();
  const [checkpoint] = await checkpoints.listCheckpoints(id);
  const result = await checkpoints.rewind(id, checkpoint?.id ?? '', { code: true, conversation: false });
  expect(result.applied?.restored).toEqual(['p0.txt']);
  expect(readFileSync(join(root, 'p0.txt'), 'utf8')).toBe('p0\n');
  expect(readFileSync(join(extra, 'e0.txt'), 'utf8')).toBe('changed\n');
  expect(result.plan.untracked).toEqual([`${extra}: the project and the added directories have more than 6 files`]);
});

/**
 * Input and path safety: the real tools (default registry) against escaping paths, symlinks out of the project,
 * NUL and control characters, a 1 GB sparse file, binary and invalid UTF-8 files, 10 MB of Bash output and a
 * command whose children ignore SIGTERM. Each must be bounded, answered with an error code where it is refused,
 * and leave everything outside the project untouched. A 5 MB CODE_LAW.md goes through the binary.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, open, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolEnvelope } from '../../src/tools/registry/envelope.js';
import { FileStateRecord } from '../../src/tools/files/file-state.js';
import { createDefaultRegistry, type RunContext } from '../../src/tools/registry/registry.js';
import { runTool } from '../tools/helpers.js';
import { TodoStore } from '../../src/tools/planning/todo-store.js';
import { startFakeAnthropic, systemText } from '../helpers/fake-anthropic-server.js';
import { closedSession, finish, makeSandbox, processRunning, runMca, type Sandbox } from './harness.js';
import { ResultLog } from './results.js';

const SECRET = 'outside the project: must never change\n';
const registry = createDefaultRegistry();
const log = new ResultLog('paths');
const order: string[] = [];

let sandbox: Sandbox;
let outside: string;

function context(): RunContext {
  return {
    projectRoot: sandbox.project,
    signal: new AbortController().signal,
    fileState: new FileStateRecord(),
    todos: new TodoStore(),
    gate: { decide: () => Promise.resolve({ behavior: 'allow' }) },
  };
}

/** Nothing outside the project changed: the one outside file is as it was and nothing new appeared. */
function outsideUntouched(): boolean {
  const names = existsSync(outside) ? readFileSync(join(outside, 'secret.txt'), 'utf8') : '';
  return names === SECRET && !existsSync(join(outside, 'pwned.txt')) && !existsSync(join(outside, 'new.txt'));
}

function describeEnvelope(envelope: ToolEnvelope): string {
  if (envelope.status === 'error')
    return `${envelope.error?.code ?? '?'}: ${envelope.error?.message.split('\n')[0] ?? ''}`;
  return `${envelope.status}${envelope.text.length > 0 ? ` (${envelope.text.length} chars of text)` : ''}`;
}

interface Case {
  fault: string;
  run: (ctx: RunContext) => Promise<string>;
}

/** A tool call that must be refused with `code` and leave the outside alone. */
function refused(
  fault: string,
  tool: string,
  input: Record<string, unknown> | (() => Record<string, unknown>),
  code: string,
): Case {
  return {
    fault,
    run: async (ctx) => {
      const envelope = await runTool(registry, tool, typeof input === 'function' ? input() : input, ctx);
      expect(envelope.status).toBe('error');
      expect(envelope.error?.code).toBe(code);
      return `${tool} → ${describeEnvelope(envelope)}`;
    },
  };
}

const CASES: Case[] = [
  refused('Read ../ out of the project', 'Read', { path: '../outside/secret.txt' }, 'ACCESS_DENIED'),
  refused('Read an absolute path outside', 'Read', () => ({ path: join(outside, 'secret.txt') }), 'ACCESS_DENIED'),
  refused('Read /etc/passwd', 'Read', { path: '/etc/passwd' }, 'ACCESS_DENIED'),
  refused('Read ~/.ssh/id_rsa', 'Read', { path: '~/.ssh/id_rsa' }, 'ACCESS_DENIED'),
  refused('Write ../ out of the project', 'Write', { path: '../outside/pwned.txt', content: 'x' }, 'ACCESS_DENIED'),
  refused(
    'Write an absolute path outside',
    'Write',
    () => ({ path: join(outside, 'pwned.txt'), content: 'x' }),
    'ACCESS_DENIED',
  ),
  refused('Read a symlink to a file outside', 'Read', { path: 'link-out.txt' }, 'ACCESS_DENIED'),
  refused('Write through a symlinked directory', 'Write', { path: 'dir-out/pwned.txt', content: 'x' }, 'ACCESS_DENIED'),
  refused('Write through a dangling symlink', 'Write', { path: 'dangling.txt', content: 'x' }, 'ACCESS_DENIED'),
  refused(
    'Edit through a symlink to a file outside',
    'Edit',
    { path: 'link-out.txt', old_string: 'outside', new_string: 'inside' },
    'ACCESS_DENIED',
  ),
  refused('LS ..', 'LS', { path: '..' }, 'ACCESS_DENIED'),
  refused('Glob with path ..', 'Glob', { pattern: '**/*', path: '..' }, 'ACCESS_DENIED'),
  refused('Grep with path /', 'Grep', { pattern: 'root', path: '/' }, 'ACCESS_DENIED'),
  refused('Read a symlink loop', 'Read', { path: 'loop-a' }, 'INVALID_PARAM'),
  refused('Read a path with NUL', 'Read', { path: 'a.ts\u0000.png' }, 'INVALID_PARAM'),
  refused('Write a path with NUL', 'Write', { path: 'evil\u0000.txt', content: 'x' }, 'INVALID_PARAM'),
  refused(
    'Write a path with control characters',
    'Write',
    { path: 'evil\u001b[2J\n.txt', content: 'x' },
    'INVALID_PARAM',
  ),
  {
    fault: 'Glob pattern reaching out with ../',
    run: async (ctx) => {
      const envelope = await runTool(registry, 'Glob', { pattern: '../outside/*' }, ctx);
      expect(JSON.stringify(envelope.data ?? {})).not.toContain('secret.txt');
      return `Glob → ${describeEnvelope(envelope)}, no outside file listed`;
    },
  },
  refused('Read a binary file', 'Read', { path: 'image.png' }, 'BINARY_FILE'),
  refused('Read a 1 GB sparse file (all NUL bytes)', 'Read', { path: 'sparse.bin' }, 'BINARY_FILE'),
  {
    fault: 'Read a 1 GB file with a text head (sparse)',
    run: async (ctx) => {
      const envelope = await runTool(registry, 'Read', { path: 'huge.log' }, ctx);
      expect(envelope.status).toBe('success');
      expect(envelope.text.length).toBeLessThan(200_000);
      expect(envelope.text).toContain('line count not computed');
      return `Read → ${describeEnvelope(envelope)}: first 500 lines only`;
    },
  },
  {
    fault: 'Grep a project holding 1 GB sparse files',
    run: async (ctx) => {
      const envelope = await runTool(registry, 'Grep', { pattern: 'needle-42' }, ctx);
      expect(envelope.status).not.toBe('error');
      expect(envelope.text.length).toBeLessThan(50_000);
      return `Grep → ${describeEnvelope(envelope)}`;
    },
  },
  {
    fault: 'Read a file with invalid UTF-8',
    run: async (ctx) => {
      const envelope = await runTool(registry, 'Read', { path: 'latin1.txt' }, ctx);
      expect(envelope.status).toBe('success');
      expect(envelope.text).toContain('\uFFFD');
      return `Read → ${describeEnvelope(envelope)}, bad bytes shown as U+FFFD`;
    },
  },
  {
    fault: 'Edit a file with invalid UTF-8 elsewhere in it',
    run: async (ctx) => {
      const before = await readFile(join(sandbox.project, 'latin1.txt'));
      await runTool(registry, 'Read', { path: 'latin1.txt' }, ctx);
      const envelope = await runTool(
        registry,
        'Edit',
        { path: 'latin1.txt', old_string: 'plain', new_string: 'PLAIN' },
        ctx,
      );
      const after = await readFile(join(sandbox.project, 'latin1.txt'));
      // Either refused with the file untouched, or edited with every other byte kept: never silently re-encoded.
      if (envelope.status === 'error') expect(after.equals(before)).toBe(true);
      else expect(after.equals(Buffer.from(before.toString('latin1').replace('plain', 'PLAIN'), 'latin1'))).toBe(true);
      return `Edit → ${describeEnvelope(envelope)}`;
    },
  },
  {
    fault: '10 MB of Bash output',
    run: async (ctx) => {
      const command = "head -c 10485760 /dev/zero | tr '\\0' 'a'; echo; echo tail-marker";
      const envelope = await runTool(registry, 'Bash', { command }, ctx);
      expect(envelope.status).not.toBe('error');
      expect(envelope.text.length).toBeLessThan(40_000);
      expect(envelope.text).toContain('tail-marker');
      expect(JSON.stringify(envelope.data)).toContain('truncated');
      return `Bash → ${describeEnvelope(envelope)}, head and tail kept`;
    },
  },
  {
    fault: 'Bash command whose children ignore SIGTERM (timeout)',
    run: async (ctx) => {
      const pids = join(sandbox.project, 'pids.txt');
      const command = `for i in 1 2 3; do (trap '' TERM; exec sleep 120) & echo $! >> pids.txt; done; wait`;
      const envelope = await runTool(registry, 'Bash', { command, timeout_ms: 1_000 }, ctx);
      expect(envelope.status).toBe('error');
      expect(envelope.error?.code).toBe('TIMEOUT');
      const alive = (await readFile(pids, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .filter((pid) => processRunning(Number(pid)));
      expect(alive).toEqual([]);
      return `Bash → ${describeEnvelope(envelope)}; all 3 children gone`;
    },
  },
];

async function sparse(path: string, size: number, head = ''): Promise<void> {
  const handle = await open(path, 'w');
  try {
    if (head) await handle.write(head);
    await handle.truncate(size);
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  sandbox = await makeSandbox('mca-paths');
  outside = join(dirname(sandbox.project), 'outside');
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), SECRET);
  const p = (name: string) => join(sandbox.project, name);
  await writeFile(p('a.ts'), 'export const a = 1;\n');
  await symlink(join(outside, 'secret.txt'), p('link-out.txt'));
  await symlink(outside, p('dir-out'));
  await symlink(join(outside, 'new.txt'), p('dangling.txt'));
  await symlink(p('loop-b'), p('loop-a'));
  await symlink(p('loop-a'), p('loop-b'));
  await writeFile(
    p('image.png'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]),
  );
  await sparse(p('sparse.bin'), 1024 ** 3);
  await sparse(p('huge.log'), 1024 ** 3, 'log line with text\n'.repeat(5_000));
  await writeFile(
    p('latin1.txt'),
    Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' plain text\n')]),
  );
});

afterAll(async () => {
  log.write(order);
  await sandbox.cleanup();
});

describe('input and path safety (real tools)', () => {
  for (const testCase of CASES) {
    order.push(testCase.fault);
    it(testCase.fault, { timeout: 60_000 }, async () => {
      let behaviour = 'the check failed';
      let intact = 0;
      try {
        behaviour = await testCase.run(context());
        expect(outsideUntouched()).toBe(true);
        intact = 1;
      } finally {
        // Temp directory names change every run; the table shows where, not which.
        behaviour = behaviour.split(dirname(sandbox.project)).join('<tmp>');
        log.add({ group: 'input', fault: testCase.fault, behaviour, runs: 1, intact });
      }
    });
  }

  const codeLaw = 'a 5 MB CODE_LAW.md (real binary)';
  order.push(codeLaw);
  it(codeLaw, { timeout: 60_000 }, async () => {
    let behaviour = 'the check failed';
    let intact = 0;
    const rules = join(sandbox.project, 'CODE_LAW.md');
    const server = await startFakeAnthropic([finish('rules read')]);
    try {
      await writeFile(rules, `# Rules\n${'- keep functions small and named well\n'.repeat(140_000)}`);
      const result = await runMca(sandbox, ['-p', 'hello'], { baseUrl: server.url });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('rules read\n');
      const system = systemText(server.requests[0]?.body ?? {});
      expect(system).toContain('# Project Rules and Memory');
      expect(system.length).toBeLessThan(150_000);
      expect((await closedSession(sandbox)).problems).toEqual([]);
      behaviour = `exit 0; CODE_LAW cut to ${system.length} chars of system prompt with a note`;
      intact = 1;
    } finally {
      await rm(rules, { force: true });
      await server.close();
      log.add({ group: 'input', fault: codeLaw, behaviour, runs: 1, intact });
    }
  });
});

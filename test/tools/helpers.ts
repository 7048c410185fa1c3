import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FileStateRecord } from '../../src/tools/files/file-state.js';
import { TodoStore } from '../../src/tools/planning/todo-store.js';
import { newCallId } from '../../src/loop/call-id.js';
import type { RunContext, ToolRegistry } from '../../src/tools/registry/registry.js';
import type { ToolEnvelope } from '../../src/tools/registry/envelope.js';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../src/tools/registry/tool-context.js';

export interface TestProject {
  root: string;
  path(rel: string): string;
  write(rel: string, content: string | Buffer): Promise<string>;
  read(rel: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** A real, symlink-resolved temp directory with the given files. */
export async function makeProject(files: Record<string, string | Buffer> = {}): Promise<TestProject> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'mca-tools-')));
  const project: TestProject = {
    root,
    path: (rel) => join(root, rel),
    async write(rel, content) {
      const target = join(root, rel);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
      return target;
    },
    read: (rel) => readFile(join(root, rel), 'utf8'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  for (const [rel, content] of Object.entries(files)) await project.write(rel, content);
  return project;
}

export interface TestContext extends RunContext {
  requests: ApprovalRequest[];
  controller: AbortController;
}

/**
 * A run context whose decision point records every approval request and approves it unless `approve` says no
 * (read-only calls, with no request, run). The tools' own tests; the decision point's rules are tested apart.
 */
export function makeContext(projectRoot: string, approve?: Approver): TestContext {
  const controller = new AbortController();
  const requests: ApprovalRequest[] = [];
  return {
    projectRoot,
    signal: controller.signal,
    controller,
    fileState: new FileStateRecord(),
    todos: new TodoStore(),
    requests,
    gate: {
      decide: async (_call, request) => {
        if (!request) return { behavior: 'allow' };
        requests.push(request);
        const decision: ApprovalDecision = approve ? await approve(request) : { approved: true };
        if (decision.approved) return { behavior: 'allow' };
        return decision.reason === undefined ? { behavior: 'deny' } : { behavior: 'deny', message: decision.reason };
      },
    },
  };
}

/** Runs one model call of `name` with `input` (a fresh id) through the registry. */
export function runTool(registry: ToolRegistry, name: string, input: unknown, ctx: RunContext): Promise<ToolEnvelope> {
  return registry.run({ id: newCallId(), name, input, source: 'model' }, ctx);
}

/**
 * True while `pid` runs. `process.kill(pid, 0)` succeeds for zombies too, and orphans stay zombies when the
 * container's init never reaps them, so a zombie (state Z in /proc) counts as dead.
 */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The typed `data` of an envelope (envelope data is a plain JSON record). */
export function dataOf<Data>(envelope: { data: Record<string, unknown> }): Data {
  return envelope.data as unknown as Data;
}

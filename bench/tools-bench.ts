/**
 * Tools bench: the real Grep tool (ripgrep engine and JS engine) next to raw `rg` on the same generated tree,
 * the real Glob next to raw fast-glob, and the real Read on a 100,000-line file. The tree is generated in a
 * temp directory with deterministic content and removed afterwards.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fg from 'fast-glob';
import type { $ZodType, output } from 'zod/v4/core';
import type { ToolDefinition } from '../src/tools/registry/define-tool.js';
import type { ToolEnvelope } from '../src/tools/registry/envelope.js';
import { FileStateRecord } from '../src/tools/files/file-state.js';
import { globTool } from '../src/tools/walking/glob.js';
import { createGrepTool } from '../src/tools/grep/grep.js';
import { findRipgrep } from '../src/tools/grep/grep-ripgrep.js';
import { readTool } from '../src/tools/files/read.js';
import { TodoStore } from '../src/tools/planning/todo-store.js';
import type { ToolContext } from '../src/tools/registry/tool-context.js';
import { timeRuns, type Timing } from './lib/timing.js';

export interface ToolsResult {
  files: number;
  rgAvailable: boolean;
  grepMatches: number;
  rawRg?: Timing;
  grepRipgrep?: Timing;
  grepJs: Timing;
  rawFastGlob: Timing;
  glob: Timing;
  globTotal: number;
  readFirst: Timing;
  readLast: Timing;
}

/** Deterministic file content: 40 lines, and the needle in every 97th file. */
function fileText(index: number): string {
  const lines: string[] = [];
  for (let line = 0; line < 40; line += 1) {
    lines.push(`export function f${index}_${line}(value: number): number { return value * ${line} + ${index % 13}; }`);
  }
  if (index % 97 === 0) lines.splice(20, 0, `// needle_marker for file ${index}`);
  return lines.join('\n') + '\n';
}

async function generateTree(root: string, files: number): Promise<void> {
  const perDir = 100;
  for (let dir = 0; dir * perDir < files; dir += 1) {
    const path = join(root, 'src', `d${String(dir).padStart(3, '0')}`);
    await mkdir(path, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let index = dir * perDir; index < Math.min(files, (dir + 1) * perDir); index += 1) {
      writes.push(writeFile(join(path, `m${index}.ts`), fileText(index)));
    }
    await Promise.all(writes);
  }
  const big = Array.from({ length: 100_000 }, (_, line) => `line ${line + 1}: ${'lorem ipsum '.repeat(4)}`);
  await writeFile(join(root, 'big.txt'), big.join('\n') + '\n');
}

function runRawRg(rg: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ['--no-config', '-n', '-i', 'needle_marker', '.'], {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

function context(projectRoot: string): ToolContext {
  return {
    projectRoot,
    signal: new AbortController().signal,
    fileState: new FileStateRecord(),
    todos: new TodoStore(),
    callId: 'toolu_bench',
    source: 'model',
  };
}

/** Runs a tool's plan without a decision point (these tools only read: they ask nothing). */
async function direct<Schema extends $ZodType>(
  tool: ToolDefinition<Schema>,
  input: output<Schema>,
  ctx: ToolContext,
): Promise<ToolEnvelope> {
  const plan = await tool.prepare(input, ctx);
  return plan.ok ? await plan.execute() : plan.envelope;
}

function expectOk(envelope: ToolEnvelope, what: string): ToolEnvelope {
  if (envelope.status === 'error') throw new Error(`${what} failed: ${envelope.error?.message ?? envelope.text}`);
  return envelope;
}

export async function runToolsBench(options: { files: number; runs: number }): Promise<ToolsResult> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'mca-bench-tools-')));
  try {
    await generateTree(root, options.files);
    const ctx = context(root);
    const rg = findRipgrep();
    const grepInput = { pattern: 'needle_marker', path: '.', case_sensitive: false };
    const rgTool = createGrepTool({ engine: 'ripgrep' });
    const jsTool = createGrepTool({ engine: 'js' });
    const probe = expectOk(await direct(jsTool, grepInput, ctx), 'Grep (js)');
    const result: ToolsResult = {
      files: options.files,
      rgAvailable: rg !== undefined,
      grepMatches: Number((probe.data as { total?: unknown }).total ?? 0),
      grepJs: await timeRuns(options.runs, async () => expectOk(await direct(jsTool, grepInput, ctx), 'Grep (js)')),
      rawFastGlob: await timeRuns(options.runs, () => fg('**/*.ts', { cwd: root, dot: false })),
      glob: await timeRuns(options.runs, async () =>
        expectOk(await direct(globTool, { pattern: '**/*.ts', path: '.', limit: 50 }, ctx), 'Glob'),
      ),
      globTotal: 0,
      readFirst: await timeRuns(options.runs, async () =>
        expectOk(await direct(readTool, { path: 'big.txt', start_line: 1, limit: 2000 }, ctx), 'Read'),
      ),
      readLast: await timeRuns(options.runs, async () =>
        expectOk(await direct(readTool, { path: 'big.txt', start_line: 98_001, limit: 2000 }, ctx), 'Read'),
      ),
    };
    const globProbe = await direct(globTool, { pattern: '**/*.ts', path: '.', limit: 50 }, ctx);
    result.globTotal = Number((globProbe.data as { total?: unknown }).total ?? 0);
    if (rg !== undefined) {
      result.rawRg = await timeRuns(options.runs, () => runRawRg(rg, root));
      result.grepRipgrep = await timeRuns(options.runs, async () =>
        expectOk(await direct(rgTool, grepInput, ctx), 'Grep (rg)'),
      );
    }
    return result;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

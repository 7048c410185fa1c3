/**
 * Runs a command under the real `bash -c` with nothing real to run: PATH holds only stub executables that log
 * their argv and do nothing else, HOME and the working directory are inside a temp dir, stdin is empty. What the
 * log holds is exactly what bash executed (builtins such as `echo` or `eval` are not logged; what they run is).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export const STUB_NAMES = ['npm', 'git', 'touch', 'rm', 'cat', 'ls', 'curl', 'env', 'xargs', 'sh'] as const;

const FIELD = '\x1f';
const RECORD = '\x1e';
/** Stands for a newline inside a logged argument (see the stub). */
const NEWLINE = '\x1d';

function findBash(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      const path = join(dir, 'bash');
      if (statSync(path).isFile()) return path;
    } catch {
      // next
    }
  }
  throw new Error('bash not found on PATH');
}

export interface SandboxRun {
  /** Every external command bash executed, as its argv ([0] is the name it was called by). */
  executed: string[][];
  /** The work directory's files (name → content) after the run. */
  files: Map<string, string>;
  status: number | null;
  stdout: string;
}

export class BashSandbox {
  readonly root = mkdtempSync(join(tmpdir(), 'mca-bash-diff-'));
  private readonly bash = findBash();
  private readonly bin = join(this.root, 'bin');
  private count = 0;

  constructor() {
    mkdirSync(this.bin);
    mkdirSync(join(this.root, 'home'));
    for (const name of STUB_NAMES) {
      const path = join(this.bin, name);
      writeFileSync(
        path,
        // One write per record (O_APPEND): stubs running side by side (`&`, `|`, `<( )`) do not interleave. bash's
        // printf flushes at each newline, so a newline inside an argument is written as NEWLINE and decoded on read.
        `#!${this.bash}\nr="\${0##*/}"; for a in "$@"; do r+=$'${'\\x1f'}'"\${a//$'\\n'/$'${'\\x1d'}'}"; done; ` +
          `printf '%s${RECORD}' "$r" >> "$STUB_LOG"\n`,
      );
      chmodSync(path, 0o755);
    }
  }

  /** A fresh work directory holding `in.txt`, the command run in it, and what happened. */
  run(command: string): SandboxRun {
    this.count += 1;
    const work = join(this.root, `w${this.count}`, 'work');
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'in.txt'), 'input\n');
    const log = join(this.root, `w${this.count}`, 'stub.log');
    writeFileSync(log, '');
    const result = spawnSync(this.bash, ['-c', command], {
      cwd: work,
      env: { PATH: this.bin, HOME: join(this.root, 'home'), STUB_LOG: log, X: 'x', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 10_000,
    });
    const executed = readFileSync(log, 'utf8')
      .split(RECORD)
      .filter((record) => record !== '')
      .map((record) => record.split(FIELD).map((field) => field.replaceAll(NEWLINE, '\n')));
    const files = new Map<string, string>();
    for (const name of readdirSync(join(this.root, `w${this.count}`))) {
      if (name !== 'stub.log' && name !== 'work') files.set(`../${name}`, 'outside the work dir');
    }
    for (const name of readdirSync(work)) files.set(name, readFileSync(join(work, name), 'utf8'));
    // A command may leave a background job (`cmd &`) writing in the work directory after bash exits: removal retries,
    // and a directory it still fills is left for dispose() rather than failing the case.
    try {
      rmSync(join(this.root, `w${this.count}`), { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    } catch {
      // dispose() removes the whole root
    }
    return { executed, files, status: result.status, stdout: result.stdout.toString('utf8') };
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

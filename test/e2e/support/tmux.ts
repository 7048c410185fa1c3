/**
 * A tmux session on its own server socket, for driving the real `mca` binary in a real terminal. Every wait
 * polls `capture-pane` against a deadline (no fixed sleeps), and a timeout error carries the screen it last saw.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TmuxInfo {
  available: boolean;
  version: string;
}

/** Whether a usable tmux is on PATH. */
export function tmuxInfo(): TmuxInfo {
  const result = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return { available: false, version: '' };
  return { available: true, version: result.stdout.trim() };
}

export interface TmuxStart {
  /** Shell command the pane runs (tmux hands it to /bin/sh -c). */
  command: string;
  columns: number;
  rows: number;
  /** Directory the pane starts in. */
  cwd: string;
}

export interface WaitOptions {
  /** Default 20 s: generous, so a loaded 2-core machine does not trip it. */
  timeoutMs?: number;
  /** Named in the timeout error. */
  what?: string;
  /** 'screen': the visible pane only (default); 'all': scrollback included. */
  scope?: 'screen' | 'all';
}

const POLL_MS = 100;
export const DEFAULT_WAIT_MS = 20_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class TmuxSession {
  /** `-L` socket name: a private tmux server, so a user's own tmux (and its config) is never touched. */
  readonly socket = `mca-e2e-${process.pid}-${randomBytes(4).toString('hex')}`;
  readonly target = 'e2e';
  private started = false;
  /**
   * With MCA_E2E_COALESCE_KEYS=1 every key and text sent between two looks at the pane goes out in one tmux call,
   * so the program usually reads it all at once: the worst case of a slow or remote terminal. A test that passes
   * this way does not depend on two sends arriving as two reads.
   */
  private readonly coalesce = process.env.MCA_E2E_COALESCE_KEYS === '1';
  private queued: string[][] = [];

  private send(args: string[]): void {
    if (!this.coalesce) return void this.tmux(args);
    // Sent at the test's next await (or the next look at the pane), whichever comes first.
    if (this.queued.length === 0) setImmediate(() => this.flush());
    this.queued.push(args);
  }

  private flush(): void {
    if (this.queued.length === 0 || !this.started) return;
    const chained = this.queued.flatMap((args, index) => (index === 0 ? args : [';', ...args]));
    this.queued = [];
    this.tmux(chained);
  }

  private tmux(args: string[]): string {
    if (args[0] !== 'send-keys') this.flush();
    const result = spawnSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
    if (result.error) throw result.error;
    if (result.status !== 0) throw new Error(`tmux ${args[0] ?? ''} failed: ${result.stderr.trim()}`);
    return result.stdout;
  }

  start(options: TmuxStart): void {
    this.tmux([
      'new-session',
      '-d',
      '-s',
      this.target,
      '-x',
      String(options.columns),
      '-y',
      String(options.rows),
      '-c',
      options.cwd,
      options.command,
    ]);
    this.started = true;
    // Keep the pane after its command ends, so a crash leaves its last screen to inspect.
    this.tmux(['set-option', '-t', this.target, 'remain-on-exit', 'on']);
  }

  /** Types text literally (no key-name lookup). */
  type(text: string): void {
    this.send(['send-keys', '-t', this.target, '-l', text]);
  }

  /**
   * Pastes `text` as a terminal does: through a tmux paste buffer, wrapped in bracketed-paste marks when the program
   * asked for them (`bracketed`), else as plain input that arrives in as many reads as the pty makes of it.
   */
  paste(text: string, { bracketed }: { bracketed: boolean }): void {
    const file = join(tmpdir(), `${this.socket}-paste.txt`);
    writeFileSync(file, text);
    this.tmux(['load-buffer', '-b', 'e2e-paste', file]);
    rmSync(file, { force: true });
    this.send(['paste-buffer', '-d', '-b', 'e2e-paste', ...(bracketed ? ['-p'] : []), '-t', this.target]);
  }

  /** Sends tmux key names: 'Enter', 'C-c', 'C-d', 'Escape', '1'. */
  keys(...names: string[]): void {
    this.send(['send-keys', '-t', this.target, ...names]);
  }

  /** The visible pane as text, trailing blanks trimmed. */
  screen(): string {
    return trimLines(this.tmux(['capture-pane', '-p', '-t', this.target]));
  }

  /** Scrollback and visible pane. */
  all(): string {
    return trimLines(this.tmux(['capture-pane', '-p', '-S', '-', '-t', this.target]));
  }

  /**
   * Appends every byte the program writes to the pane from now on to `file` (`pipe-pane`): what a terminal would
   * receive, escape sequences included (the REPL's terminal bytes, its screen clears).
   */
  recordOutput(file: string): void {
    this.tmux(['pipe-pane', '-o', '-t', this.target, `cat >> '${file.replace(/'/g, `'\\''`)}'`]);
  }

  /** The pane's process id (the shell started by `start`). */
  panePid(): number {
    return Number(this.tmux(['display-message', '-p', '-t', this.target, '#{pane_pid}']).trim());
  }

  /** Lets programs in the pane write tmux's paste buffers with OSC 52 (so a test can see that none did). */
  allowClipboard(): void {
    this.tmux(['set-option', '-g', 'set-clipboard', 'on']);
  }

  /** The visible pane with its colours and attributes as escape sequences (`capture-pane -e`). */
  screenWithEscapes(): string {
    return this.tmux(['capture-pane', '-p', '-e', '-t', this.target]);
  }

  /** Resizes the window (and with it the pane); the program in it gets SIGWINCH. */
  resize(columns: number, rows: number): void {
    this.tmux(['resize-window', '-t', this.target, '-x', String(columns), '-y', String(rows)]);
  }

  /** The pane title a program may set with OSC 0/2. */
  paneTitle(): string {
    return this.tmux(['display-message', '-p', '-t', this.target, '#{pane_title}']).trim();
  }

  /** tmux paste buffers (OSC 52 writes one when the program may set the clipboard). */
  buffers(): string {
    return this.tmux(['list-buffers']).trim();
  }

  paneDead(): boolean {
    return this.tmux(['display-message', '-p', '-t', this.target, '#{pane_dead}']).trim() === '1';
  }

  /** Polls the pane until `test` passes; returns the matching text. */
  async waitFor(test: RegExp | string | ((text: string) => boolean), options: WaitOptions = {}): Promise<string> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    const check = typeof test === 'function' ? test : (text: string) => matches(text, test);
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      last = options.scope === 'all' ? this.all() : this.screen();
      if (check(last)) return last;
      if (Date.now() > deadline) {
        const what = options.what ?? String(test);
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the pane showed:\n${last}`);
      }
      await delay(POLL_MS);
    }
  }

  /** Ends the private tmux server (and with it the pane's processes). Safe to call twice. */
  kill(): void {
    if (!this.started) return;
    this.started = false;
    spawnSync('tmux', ['-L', this.socket, 'kill-server'], { encoding: 'utf8' });
  }
}

function matches(text: string, test: RegExp | string): boolean {
  return typeof test === 'string' ? text.includes(test) : test.test(text);
}

function trimLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();
}

/** Polls a condition that is not about the pane (processes, files). */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(POLL_MS);
  }
}

import { EventEmitter } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runRepl } from '../../src/ui/run-repl.js';
import { FakeSessions } from './fake-controller.js';
import { KEYS, until } from './ink-helpers.js';

/** A TTY-like stdin that records raw-mode changes, so the test can see the terminal restored. */
class FakeTtyIn extends EventEmitter {
  isTTY = true;
  rawModes: boolean[] = [];
  private queue: string[] = [];
  setRawMode(mode: boolean): this {
    this.rawModes.push(mode);
    return this;
  }
  setEncoding(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  /** As a Node Readable does, every chunk `read()` returns is emitted as 'data' too. */
  read(): string | null {
    const chunk = this.queue.shift() ?? null;
    if (chunk !== null) this.emit('data', chunk);
    return chunk;
  }
  send(data: string): void {
    this.queue.push(data);
    this.emit('readable');
  }
}

class FakeTtyOut extends EventEmitter {
  isTTY = true;
  columns = 80;
  rows = 24;
  output = '';
  write(chunk: string): boolean {
    this.output += chunk;
    return true;
  }
}

it('runs until Ctrl-D, persists the input history and leaves raw mode off', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mca-repl-'));
  const historyPath = join(dir, 'state', 'input-history.jsonl');
  const stdin = new FakeTtyIn();
  const stdout = new FakeTtyOut();
  const sessions = new FakeSessions();
  const done = runRepl({
    sessions,
    inputHistoryPath: historyPath,
    completePath: async () => [],
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
  });
  await until(() => expect(stdin.rawModes).toContain(true));
  stdin.send('hello there');
  stdin.send(KEYS.enter);
  await until(() => expect(sessions.active.runs).toHaveLength(1));
  await until(() => expect(stdout.output).toContain('ok'));
  stdin.send(KEYS.ctrlD);
  await done;
  expect(stdin.rawModes.at(-1)).toBe(false);
  expect(await readFile(historyPath, 'utf8')).toBe('"hello there"\n');
});

/**
 * `npx tsx bench/repl-stream-bench.ts [--kb K] [--chunks N] [--runs R] [--code] [--base path/to/mca.cjs]`: what the Ink REPL
 * writes to the terminal while it streams a long answer (issue 42). The built REPL runs in tmux against the loopback
 * fake, which streams a plain answer of K kB (default 200) of Markdown paragraphs (`--code`: one fenced code block)
 * in N pieces (default 2,000); tmux's
 * `pipe-pane` records every byte mca writes from Enter until the answer is whole and the input box is back. Prints
 * the bytes written, bytes per kB of answer text, and the full-screen clears (`ESC[2J`, `ESC[3J`, `ESC c`) among
 * them; with `--base` the same for another build, run alternately with this one (R runs each, default 1).
 * A measurement aid: it asserts nothing (test/e2e/repl-stream-bytes.test.ts holds the bound).
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropic } from '../test/helpers/fake-anthropic-server.js';
import { BINARY, launchRepl } from '../test/e2e/support/repl-launch.js';
import { countClears, longAnswer } from '../test/e2e/support/terminal-output.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at < 0 ? Number.NaN : Number(process.argv[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

interface StreamRun {
  bytes: number;
  clears: number;
  answerBytes: number;
  wallMs: number;
}

async function run(binary: string, kb: number, chunks: number, shape: 'paragraphs' | 'code'): Promise<StreamRun> {
  const answer = longAnswer(kb, shape);
  const server = await startFakeAnthropic([{ text: answer, chunks }], { loop: true });
  const repl = await launchRepl(server.url, { binary, env: { MCA_TOOL_PROTOCOL: 'native' }, columns: 100, rows: 40 });
  const file = join(tmpdir(), `mca-repl-stream-${process.pid}-${Date.now()}.out`);
  try {
    await repl.term.waitFor('Ask anything', { what: 'the REPL input box', timeoutMs: 60_000 });
    repl.term.type('write the long answer');
    repl.term.recordOutput(file);
    const started = performance.now();
    repl.term.keys('Enter');
    await repl.term.waitFor(
      (screen) => screen.includes('END-OF-ANSWER') && !screen.includes('Thinking…') && screen.includes('Ask anything'),
      { what: 'the whole answer and the idle input box', timeoutMs: 600_000 },
    );
    const wallMs = performance.now() - started;
    const output = readFileSync(file, 'latin1');
    return { bytes: output.length, clears: countClears(output), answerBytes: Buffer.byteLength(answer), wallMs };
  } finally {
    await repl.cleanup();
    await server.close();
    rmSync(file, { force: true });
  }
}

async function main(): Promise<void> {
  const kb = option('--kb', 200);
  const chunks = option('--chunks', 2000);
  const runs = option('--runs', 1);
  const baseAt = process.argv.indexOf('--base');
  const base = baseAt < 0 ? undefined : process.argv[baseAt + 1];
  const shape = process.argv.includes('--code') ? 'code' : 'paragraphs';
  const builds: Array<[string, string]> = [
    ['this tree', BINARY],
    ...(base ? [['base', base] as [string, string]] : []),
  ];
  console.log(
    `REPL streaming ${kb} kB of ${shape} in ${chunks} pieces, 100×40 pane; 1-minute load at start ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log('| build | run | bytes written | bytes per kB of answer | full-screen clears | wall |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (let index = 1; index <= runs; index += 1) {
    for (const [name, binary] of builds) {
      const result = await run(binary, kb, chunks, shape);
      const perKb = result.bytes / (result.answerBytes / 1024);
      console.log(
        `| ${name} | ${index} | ${result.bytes.toLocaleString('en-US')} | ${perKb.toFixed(0)} | ${result.clears} | ` +
          `${(result.wallMs / 1000).toFixed(1)} s |`,
      );
    }
  }
}

await main();

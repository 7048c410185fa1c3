/**
 * A 600 MB session file (many rounds with 1 MB tool records, a 70 MB Write record, compaction snapshots, as a
 * long session makes) loads through the built binary with bounded memory: the peak RSS of the `mca -c` child
 * stays far below the file's size, and the history continues. Slow (it writes 600 MB): runs only in
 * `npm run test:reliability`.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/context/message.js';
import { SessionStore } from '../../../src/store/session-store.js';
import { startFakeAnthropic } from '../../helpers/fake-anthropic-server.js';
import { collect, finish, makeSandbox, spawnMca } from '../harness.js';
import { ResultLog } from '../results.js';

const log = new ResultLog('huge-session');
const TARGET_BYTES = 600 * 1024 * 1024;
const MEMORY_BOUND_MB = 450;
const HEAP_CAP_MB = 256;

const ts = '2026-01-01T00:00:00.000Z';
const user = (round: number, content: string): Message => ({ role: 'user', content, metadata: { round, ts } });
const step = (round: number, content: string, end?: 'answer'): Message => ({
  role: 'assistant',
  content,
  metadata: { round, ts, step: 1, ...(end ? { roundEnd: end } : {}) },
});

async function writeHugeSession(path: string, projectRoot: string, sessionId: string): Promise<number> {
  const out = createWriteStream(path, { mode: 0o600 });
  const put = async (record: unknown): Promise<void> => {
    if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
  };
  await put({ type: 'meta', version: 1, sessionId, projectRoot, createdAt: ts, model: 'claude-sonnet-5-5' });
  const megabyte = 'y'.repeat(1024 * 1024);
  let round = 0;
  let written = 0;
  while (written < TARGET_BYTES || round % 20 !== 0) {
    round += 1;
    const big = round === 5 ? 'z'.repeat(70 * 1024 * 1024) : megabyte;
    await put({ type: 'message', message: user(round, `task ${round}`) });
    await put({ type: 'message', message: step(round, `Action: Write[{"path":"f${round}.txt","content":"${big}"}]`) });
    await put({ type: 'message', message: step(round, `done ${round}`, 'answer') });
    written += big.length + 600;
    // A compaction every 20 rounds: the snapshot keeps a summary and the newest round, small.
    if (round % 20 === 0) {
      const summary: Message = {
        role: 'summary',
        content: `## 📌 Archived Session Summary\n- rounds 1-${round - 1} archived`,
        metadata: { round: round - 1, ts, coversRounds: [1, round - 1] },
      };
      await put({
        type: 'snapshot',
        ts,
        messages: [summary, user(round, `task ${round}`), step(round, `done ${round}`, 'answer')],
      });
    }
  }
  out.end();
  await once(out, 'close');
  return round;
}

/** Highest resident set size (VmHWM) the process reached, polled until it exits. */
function watchPeakRss(pid: number): { peakMb: () => number; stop: () => void } {
  let peakKb = 0;
  const timer = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // exited
    }
  }, 25);
  return { peakMb: () => Math.round(peakKb / 1024), stop: () => clearInterval(timer) };
}

describe('a 600 MB session file', () => {
  afterAll(() => log.write());

  it('loads with bounded memory and continues', { timeout: 900_000 }, async () => {
    const sandbox = await makeSandbox('mca-huge');
    const server = await startFakeAnthropic([finish('continued')]);
    let behaviour = 'the check failed';
    let intact = 0;
    try {
      const store = new SessionStore(sandbox.home, sandbox.project);
      mkdirSync(store.dir, { recursive: true, mode: 0o700 });
      const sessionId = '0c0ffee0-0000-4000-8000-000000000600';
      const path = store.pathOf(sessionId);
      const rounds = await writeHugeSession(path, store.projectRoot, sessionId);
      const sizeMb = Math.round(statSync(path).size / 1024 / 1024);
      expect(sizeMb).toBeGreaterThanOrEqual(600);

      // A V8 heap capped well below the file's size: loading must stream, or the child dies out of memory.
      const env = { NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB}` };
      const run = collect(
        spawnMca(sandbox, ['-c', '-p', 'after the huge session'], { baseUrl: server.url, env }),
        600_000,
      );
      const rss = watchPeakRss(run.child.pid ?? 0);
      const result = await run.done;
      rss.stop();
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('continued\n');
      const sent = JSON.stringify(server.requests.at(-1)?.body);
      expect(sent).toContain(`task ${rounds}`);
      expect(sent).toContain('after the huge session');
      expect(rss.peakMb()).toBeGreaterThan(0);
      expect(rss.peakMb()).toBeLessThan(MEMORY_BOUND_MB);
      log.fact('session file (MB)', sizeMb);
      log.fact('peak RSS of mca -c (MB)', rss.peakMb());
      log.fact('V8 heap cap of the child (MB)', HEAP_CAP_MB);
      behaviour = `-c loads and continues under a ${HEAP_CAP_MB} MB heap cap; peak RSS ${rss.peakMb()} MB for a ${sizeMb} MB file`;
      intact = 1;
    } finally {
      log.add({
        group: 'session',
        fault: `a ${TARGET_BYTES / 1024 / 1024} MB session file with a 70 MB record`,
        behaviour,
        runs: 1,
        intact,
      });
      await server.close();
      await sandbox.cleanup();
    }
  });
});

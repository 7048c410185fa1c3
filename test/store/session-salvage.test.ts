/**
 * A session file damaged in any way still loads: bad lines are skipped with one warning, rounds they break are
 * closed as damaged, a torn non-UTF-8 tail is cut at the byte where the last complete line ends, a second live
 * process is refused and a dead one's lock is taken over.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyViolations } from '../../src/context/history-invariants.js';
import type { Message } from '../../src/context/message.js';
import { msg } from './messages.js';
import { DAMAGED_ROUND_TEXT, salvageHistory } from '../../src/store/salvage-history.js';
import { parseSessionText } from '../../src/store/session-records.js';
import { SessionStore } from '../../src/store/session-store.js';

let home: string;
let project: string;
beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), 'mca-salvage-'));
  home = join(root, 'home');
  project = join(root, 'project');
  await mkdir(project);
});
afterEach(async () => rm(join(home, '..'), { recursive: true, force: true }));

/** Three closed rounds with a tool step each. */
function rounds(count = 3): Message[] {
  const out: Message[] = [];
  for (let round = 1; round <= count; round += 1) {
    out.push(msg('user', `ask ${round}`, round));
    out.push(msg('assistant', `Action: LS[{}]`, round, { step: 1 }));
    out.push(msg('tool', '{"status":"success"}', round, { step: 1, toolName: 'LS' }));
    out.push(msg('assistant', `answer ${round}`, round, { step: 2, roundEnd: 'answer' }));
  }
  return out;
}

async function sessionWith(messages: Message[]): Promise<{ store: SessionStore; id: string; path: string }> {
  const store = new SessionStore(home, project);
  const writer = await store.create('m');
  for (const message of messages) writer.appendMessage(message);
  writer.close();
  return { store, id: writer.sessionId, path: writer.path };
}

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n');
}

describe('salvage on load', () => {
  // Each damage is applied to line `at` of a file with meta + 12 message lines.
  const DAMAGES: Array<[string, (all: string[], at: number) => string[]]> = [
    [
      'a flipped byte that breaks the JSON',
      (all, at) => all.map((line, i) => (i === at ? line.replace('{', '[') : line)),
    ],
    ['a duplicated line', (all, at) => [...all.slice(0, at + 1), all[at] ?? '', ...all.slice(at + 1)]],
    ['a lost line', (all, at) => [...all.slice(0, at), ...all.slice(at + 1)]],
    [
      'two lines swapped',
      (all, at) => all.map((line, i) => (i === at ? (all[at + 1] ?? '') : i === at + 1 ? (all[at] ?? '') : line)),
    ],
    ['a line of binary garbage', (all, at) => [...all.slice(0, at), '\u0000\u00ff\u00fe garbage', ...all.slice(at)]],
    ['a valid record of an unknown type', (all, at) => [...all.slice(0, at), '{"type":"alien"}', ...all.slice(at)]],
  ];
  for (const [name, damage] of DAMAGES) {
    for (const at of [1, 3, 6, 11]) {
      it(`${name} at line ${at + 1}: loads the rest, one warning, valid history`, async () => {
        const { store, id, path } = await sessionWith(rounds());
        writeFileSync(path, damage(lines(path), at).join('\n'));
        const readable = parseSessionText(readFileSync(path, 'utf8'), 'damaged').messages;
        const loaded = await store.open(id);
        loaded.writer.close();
        expect(historyViolations(loaded.messages)).toEqual([]);
        expect(loaded.warnings.length).toBeLessThanOrEqual(1);
        const users = loaded.messages.filter((m) => m.role === 'user').map((m) => m.content);
        // Every user message whose line is still readable is still there.
        for (const ask of new Set(readable.filter((m) => m.role === 'user').map((m) => m.content))) {
          expect(users).toContain(ask);
        }
        // The repair was written back: a second load is clean and identical.
        const again = await store.open(id);
        again.writer.close();
        expect(again.warnings.filter((w) => !/unreadable/.test(w))).toEqual([]);
        expect(again.messages).toEqual(loaded.messages);
      });
    }
  }

  it('closes a round broken in the middle as damaged and keeps the rounds after it', () => {
    const all = rounds();
    const broken = [...all.slice(0, 5), ...all.slice(8)]; // round 2 lost everything after its user message
    const salvaged = salvageHistory(broken);
    expect(historyViolations(salvaged.messages)).toEqual([]);
    expect(salvaged.damagedRounds).toEqual([2]);
    expect(salvaged.messages.filter((m) => m.content === DAMAGED_ROUND_TEXT)).toHaveLength(1);
    expect(salvaged.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'ask 1',
      'ask 2',
      'ask 3',
    ]);
    expect(salvaged.rewritten).toBe(true);
  });

  it('cuts a torn non-UTF-8 tail at the byte offset of the last complete line', async () => {
    const { store, id, path } = await sessionWith(rounds(1));
    const clean = statSync(path).size;
    appendFileSync(path, Buffer.from([0x7b, 0x22, 0xe2, 0x82, 0xff, 0xc3]));
    const loaded = await store.open(id);
    loaded.writer.close();
    expect(loaded.messages).toHaveLength(4);
    expect(readFileSync(path).subarray(0, clean).toString('utf8')).toContain('answer 1');
    const again = await store.open(id);
    again.writer.appendMessage(msg('user', 'ask ✓ 2', 2));
    again.writer.appendMessage(msg('assistant', 'ok', 2, { roundEnd: 'answer' }));
    again.writer.close();
    const third = await store.open(id);
    third.writer.close();
    expect(third.warnings).toEqual([]);
    expect(third.messages.map((m) => m.content).slice(-2)).toEqual(['ask ✓ 2', 'ok']);
  });
});

describe('one live process per session', () => {
  it('refuses a session whose lock belongs to a live process, and takes over a dead one', async () => {
    const { store, id } = await sessionWith(rounds(1));
    const lockPath = join(store.dir, `${id}.lock`);
    const sleeper = spawn('sleep', ['30']);
    try {
      writeFileSync(lockPath, JSON.stringify({ pid: sleeper.pid }));
      const error = await store.open(id).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'SESSION_LOCKED' });
      expect((error as Error).message).toMatch(new RegExp(`in use by another mca \\(pid ${sleeper.pid}\\)`));
    } finally {
      sleeper.kill('SIGKILL');
    }
    await new Promise((resolve) => sleeper.once('exit', resolve));
    const loaded = await store.open(id);
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    loaded.writer.close();
    expect(() => statSync(lockPath)).toThrow();
  });

  it('treats a reused pid (another start time) as dead', async () => {
    const { store, id } = await sessionWith(rounds(1));
    writeFileSync(join(store.dir, `${id}.lock`), JSON.stringify({ pid: process.pid, startTime: '1' }));
    const loaded = await store.open(id);
    loaded.writer.close();
    expect(loaded.messages).toHaveLength(4);
  });
});

describe('sessions written before the directory name was unique per path', () => {
  it('are still found for their own project, never for a project whose path differs only in punctuation', async () => {
    const { legacyProjectSlug } = await import('../../src/store/project-slug.js');
    await mkdir(join(project, 'my-app'));
    await mkdir(join(project, 'my_app'));
    const mine = new SessionStore(home, join(project, 'my-app'));
    const other = new SessionStore(home, join(project, 'my_app'));
    expect(legacyProjectSlug(mine.projectRoot)).toBe(legacyProjectSlug(other.projectRoot));
    const legacyMine = join(home, 'projects', legacyProjectSlug(mine.projectRoot));
    const legacyOther = legacyMine;
    await mkdir(legacyMine, { recursive: true });
    const write = (dir: string, id: string, root: string, ask: string): void => {
      const meta = { type: 'meta', version: 1, sessionId: id, projectRoot: root, createdAt: 'x', model: 'm' };
      const lines = [
        meta,
        { type: 'message', message: msg('user', ask, 1) },
        { type: 'message', message: msg('assistant', 'ok', 1, { roundEnd: 'answer' }) },
      ];
      writeFileSync(join(dir, `${id}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    };
    write(legacyMine, '11111111-1111-4111-8111-111111111111', mine.projectRoot, 'old question of mine');
    write(legacyOther, '22222222-2222-4222-8222-222222222222', other.projectRoot, 'old question of the other');
    expect(await mine.latest()).toBe('11111111-1111-4111-8111-111111111111');
    const loaded = await mine.open('11111111');
    loaded.writer.appendMessage(msg('user', 'new question', 2));
    loaded.writer.appendMessage(msg('assistant', 'new answer', 2, { roundEnd: 'answer' }));
    loaded.writer.close();
    expect((await mine.open('11111111')).messages.map((m) => m.content)).toEqual([
      'old question of mine',
      'ok',
      'new question',
      'new answer',
    ]);
    expect(await other.latest()).toBe('22222222-2222-4222-8222-222222222222');
    expect((await other.list()).map((info) => info.title)).toEqual(['old question of the other']);
  });
});

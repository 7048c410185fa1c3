import { appendFileSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { msg } from './messages.js';
import { projectSlug } from '../../src/store/project-slug.js';
import { CRASHED_ROUND_TEXT } from '../../src/store/salvage-history.js';
import { hasOpenRound, redactSecrets, SessionError, SessionStore } from '../../src/store/session-store.js';

let home: string;
let project: string;

beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), 'mca-session-'));
  home = join(root, 'home');
  project = join(root, 'my project');
  await mkdir(project);
});
afterEach(async () => {
  await rm(join(home, '..'), { recursive: true, force: true });
});

describe('SessionStore', () => {
  it('round-trips a session: meta first, then messages, in order', async () => {
    const store = new SessionStore(home, project);
    const writer = await store.create('claude-test');
    const messages = [
      msg('user', 'fix the bug', 1),
      msg('assistant', 'Thought: look\nAction: Read[{"path":"a.ts"}]', 1, {
        step: 1,
        action: { tool: 'Read', input: { path: 'a.ts' } },
      }),
      msg('tool', '{"status":"success"}', 1, { step: 1, toolName: 'Read' }),
      msg('assistant', 'done', 1, {
        step: 2,
        roundEnd: 'answer',
        usage: { inputTokens: 1, outputTokens: 2, cacheCreationInputTokens: 3, cacheReadInputTokens: 4 },
      }),
    ];
    for (const message of messages) writer.appendMessage(message);
    writer.syncRoundEnd();
    writer.close();

    const lines = readFileSync(writer.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'meta', version: 1, sessionId: writer.sessionId, model: 'claude-test' });
    expect(lines[0]?.projectRoot).toBe(store.projectRoot);
    expect(writer.path).toBe(join(home, 'projects', projectSlug(store.projectRoot), `${writer.sessionId}.jsonl`));

    const loaded = await store.open(writer.sessionId);
    expect(loaded.messages).toEqual(messages);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.meta?.model).toBe('claude-test');
    loaded.writer.appendMessage(msg('user', 'next', 2));
    loaded.writer.close();
    // Round 2 was left open (as by a process that died): it comes back closed as crashed, not as interrupted.
    const reopened = await store.open(writer.sessionId);
    expect(reopened.messages).toHaveLength(6);
    expect(reopened.messages.at(-1)).toMatchObject({
      content: CRASHED_ROUND_TEXT,
      metadata: { round: 2, roundEnd: 'error' },
    });
    expect(reopened.warnings).toEqual([expect.stringMatching(/round 2 ended when mca stopped unexpectedly/)]);
  });

  it('ignores a torn last line with a warning and appends cleanly afterwards', async () => {
    const store = new SessionStore(home, project);
    const writer = await store.create('m');
    writer.appendMessage(msg('user', 'hello', 1));
    writer.appendMessage(msg('assistant', 'hi', 1, { roundEnd: 'answer' }));
    writer.close();
    appendFileSync(writer.path, '{"type":"message","message":{"role":"assis');

    const loaded = await store.open(writer.sessionId);
    expect(loaded.messages.map((message) => message.content)).toEqual(['hello', 'hi']);
    expect(loaded.warnings).toEqual([
      expect.stringMatching(/skipped 1 unreadable line; the rest of the session loaded/),
    ]);
    loaded.writer.appendMessage(msg('user', 'again', 2));
    loaded.writer.appendMessage(msg('assistant', 'yes', 2, { roundEnd: 'answer' }));
    loaded.writer.close();

    const again = await store.open(writer.sessionId);
    expect(again.messages.map((message) => message.content)).toEqual(['hello', 'hi', 'again', 'yes']);
    expect(again.warnings).toEqual([]);
  });

  it('skips a corrupt line in the middle with a warning', async () => {
    const store = new SessionStore(home, project);
    const writer = await store.create('m');
    writer.appendMessage(msg('user', 'one', 1));
    appendFileSync(writer.path, 'garbage{{\n{"type":"message","message":{"role":"alien"}}\n');
    writer.appendMessage(msg('assistant', 'two', 1, { roundEnd: 'answer' }));
    writer.close();

    const loaded = await store.open(writer.sessionId);
    expect(loaded.messages.map((message) => message.content)).toEqual(['one', 'two']);
    expect(loaded.warnings).toEqual([
      expect.stringMatching(/skipped 2 unreadable lines; the rest of the session loaded$/),
    ]);
  });

  it('continues from the last snapshot plus the messages after it', async () => {
    const store = new SessionStore(home, project);
    const writer = await store.create('m');
    writer.appendMessage(msg('user', 'old 1', 1));
    writer.appendMessage(msg('assistant', 'old answer', 1, { roundEnd: 'answer' }));
    const summary = msg('summary', '## 📌 Archived Session Summary\n...', 1, { coversRounds: [1, 1] });
    writer.writeSnapshot([summary]);
    writer.appendMessage(msg('user', 'new', 2));
    writer.writeSnapshot([summary, msg('user', 'new', 2)]);
    writer.appendMessage(msg('assistant', 'new answer', 2, { roundEnd: 'answer' }));
    writer.close();

    const loaded = await store.open(writer.sessionId);
    expect(loaded.messages.map((message) => message.content)).toEqual([summary.content, 'new', 'new answer']);
  });

  it('orders latest() and list() by last write, newest first, with titles and counts', async () => {
    const store = new SessionStore(home, project);
    expect(await store.latest()).toBeUndefined();
    expect(await store.list()).toEqual([]);
    const older = await store.create('m');
    older.appendMessage(msg('user', 'first session\nsecond line', 1));
    older.close();
    const newer = await store.create('m');
    newer.close();
    const newest = await store.create('m');
    newest.appendMessage(msg('user', 'third', 1));
    newest.close();
    utimesSync(older.path, new Date('2024-01-01'), new Date('2024-01-01'));
    utimesSync(newer.path, new Date('2024-06-01'), new Date('2024-06-01'));
    utimesSync(newest.path, new Date('2024-03-01'), new Date('2024-03-01'));
    // The newest file is an empty session (a REPL opened and closed, a /clear): -c skips it.
    expect(await store.latest()).toBe(newest.sessionId);
    const { rmSync } = await import('node:fs');
    rmSync(newest.path);

    const list = await store.list();
    expect(list.map((info) => info.id)).toEqual([newer.sessionId, older.sessionId]);
    expect(list[1]).toEqual({
      id: older.sessionId,
      updatedAt: '2024-01-01T00:00:00.000Z',
      title: 'first session',
      messages: 1,
    });
    expect(list[0]?.title).toBe('(no messages)');

    expect(await store.latest()).toBe(older.sessionId);
  });

  it('does not mistake other .jsonl files in the project directory for sessions', async () => {
    const store = new SessionStore(home, project);
    const writer = await store.create('m');
    writer.appendMessage(msg('user', 'hi', 1));
    writer.close();
    appendFileSync(join(store.dir, 'input-history.jsonl'), '"{\\"role\\":\\"user\\""\n{"role":"user"}\n');
    expect((await store.list()).map((info) => info.id)).toEqual([writer.sessionId]);
    expect(await store.latest()).toBe(writer.sessionId);
  });

  it('keeps projects apart and resolves unique id prefixes', async () => {
    const store = new SessionStore(home, project);
    const writer = await store.create('m');
    writer.close();
    const other = join(project, 'sub');
    await mkdir(other);
    expect(await new SessionStore(home, other).latest()).toBeUndefined();
    expect((await store.open(writer.sessionId.slice(0, 8))).sessionId).toBe(writer.sessionId);
  });

  it('throws SESSION_NOT_FOUND for unknown or unsafe ids', async () => {
    const store = new SessionStore(home, project);
    for (const id of ['00000000-0000-0000-0000-000000000000', '../../etc/passwd', 'ab']) {
      const error = await store.open(id).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SessionError);
      expect((error as SessionError).code).toBe('SESSION_NOT_FOUND');
    }
  });

  it('never writes the API key (or anything shaped like one)', async () => {
    const key = 'sk-ant-api03-supersecretvalue-XYZ';
    const store = new SessionStore(home, project, { secrets: [key] });
    const writer = await store.create('m');
    writer.appendMessage(msg('tool', `env: ANTHROPIC_API_KEY=${key} other=sk-ant-zzzzzzzzzzzz`, 1));
    writer.writeSnapshot([msg('user', `again ${key}`, 1)]);
    writer.close();
    const text = readFileSync(writer.path, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain('sk-ant-zzzz');
    expect(text).toContain('[REDACTED]');
  });

  it('creates directories 0700 and files 0600', async () => {
    const store = new SessionStore(home, project);
    const writer = await store.create('m');
    writer.close();
    expect(statSync(writer.path).mode & 0o777).toBe(0o600);
    expect(statSync(store.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'projects')).mode & 0o777).toBe(0o700);
  });

  it('refuses writes after close with SESSION_CLOSED', async () => {
    const writer = await new SessionStore(home, project).create('m');
    writer.close();
    writer.close();
    expect(() => writer.appendMessage(msg('user', 'late', 1))).toThrow(
      expect.objectContaining({ code: 'SESSION_CLOSED' }),
    );
  });

  it('finishes a last line that lacks only its newline before appending', async () => {
    const store = new SessionStore(home, project);
    const writer = await store.create('m');
    writer.close();
    appendFileSync(writer.path, JSON.stringify({ type: 'message', message: msg('user', 'no newline', 1) }));
    const loaded = await store.open(writer.sessionId);
    expect(loaded.messages.map((message) => message.content)).toEqual(['no newline', CRASHED_ROUND_TEXT]);
    loaded.writer.appendMessage(msg('user', 'after', 2));
    loaded.writer.appendMessage(msg('assistant', 'done', 2, { roundEnd: 'answer' }));
    loaded.writer.close();
    const again = await store.open(writer.sessionId);
    expect(again.messages.map((message) => message.content)).toEqual([
      'no newline',
      CRASHED_ROUND_TEXT,
      'after',
      'done',
    ]);
    expect(again.warnings).toEqual([]);
  });
});

describe('projectSlug', () => {
  it('replaces every non-alphanumeric character with a dash and adds a hash of the exact path', () => {
    expect(projectSlug('/home/me/my project.v2')).toMatch(/^-home-me-my-project-v2-[0-9a-f]{8}$/);
  });

  it('gives paths that differ only in punctuation different directories', () => {
    const names = ['/x/my-app', '/x/my_app', '/x/my.app', '/x/my app', '/x/my-app/'];
    expect(new Set(names.map(projectSlug)).size).toBe(names.length);
  });

  it('cuts long paths and keeps them unique with a hash suffix', () => {
    const a = projectSlug(`/${'x'.repeat(300)}/a`);
    const b = projectSlug(`/${'x'.repeat(300)}/b`);
    expect(a.length).toBeLessThanOrEqual(100);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9-]+$/);
  });
});

describe('hasOpenRound', () => {
  it('is true only when a user message is not followed by a round end', () => {
    expect(hasOpenRound([])).toBe(false);
    expect(hasOpenRound([msg('user', 'q', 1)])).toBe(true);
    expect(hasOpenRound([msg('user', 'q', 1), msg('assistant', 'Thought…', 1, { step: 1 })])).toBe(true);
    expect(hasOpenRound([msg('user', 'q', 1), msg('assistant', 'a', 1, { roundEnd: 'finish' })])).toBe(false);
    expect(hasOpenRound([msg('summary', 's', 1)])).toBe(false);
  });
});

describe('redactSecrets', () => {
  it('replaces raw and JSON-escaped secrets and ignores very short ones', () => {
    const secret = 'my"secret\\value';
    expect(redactSecrets(JSON.stringify({ a: secret }), [secret])).toBe('{"a":"[REDACTED]"}');
    expect(redactSecrets('abc', ['abc'])).toBe('abc');
  });
});

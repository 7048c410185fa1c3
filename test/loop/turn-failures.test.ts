/**
 * A turn always ends cleanly (issue 10, deliverable 4), seen through the controller the REPL and `-p` drive:
 * whatever throws inside a turn (here: the session file failing with a real ENOSPC from /dev/full) closes the round
 * as `error` with a code, emits exactly one `turn_end` with one line naming the file and the cause, and the next
 * turn works and carries the failed round as closed history. Also: the user's input is on disk before a compaction
 * starts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/events.js';
import { ProjectSessions } from '../../src/loop/session-manager.js';
import { loadConfig } from '../../src/config/config.js';
import type { Message } from '../../src/context/message.js';
import { SessionStore } from '../../src/store/session-store.js';
import { JsonlSessionWriter, type SessionWriter } from '../../src/store/session-writer.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { drain, judgeCalls, userText } from '../helpers/agent-harness.js';
import { act, finish, ScriptedProvider, type ScriptedStep } from '../helpers/scripted-provider.js';
import { tempProject } from '../helpers/temp-project.js';

/** A real session writer that, while `failing`, writes to /dev/full instead: the kernel answers ENOSPC. */
class DiskFullSwitch implements SessionWriter {
  failing = false;
  private readonly full: JsonlSessionWriter;

  constructor(private readonly real: SessionWriter) {
    this.full = new JsonlSessionWriter(real.sessionId, '/dev/full', []);
  }
  get sessionId(): string {
    return this.real.sessionId;
  }
  get path(): string {
    return this.real.path;
  }
  private target(): SessionWriter {
    return this.failing ? this.full : this.real;
  }
  appendMessage(message: Message): void {
    this.target().appendMessage(message);
  }
  writeSnapshot(messages: Message[]): void {
    this.target().writeSnapshot(messages);
  }
  syncRoundEnd(): void {
    this.target().syncRoundEnd();
  }
  close(): void {
    this.real.close();
  }
}

async function compose(steps: ScriptedStep[], env: Record<string, string> = {}) {
  const { root, home } = tempProject('mca-turn-fail-');
  const config = loadConfig({
    cwd: root,
    env: { MCA_HOME: home, MCA_PERMISSION_MODE: 'bypassPermissions', MCA_TOOL_PROTOCOL: 'text', ...env },
  });
  const provider = new ScriptedProvider(steps);
  const store = new SessionStore(home, root);
  let writer: DiskFullSwitch | undefined;
  const create = store.create.bind(store);
  store.create = async (model: string) => (writer = new DiskFullSwitch(await create(model)));
  const registry = createDefaultRegistry();
  const sessions = new ProjectSessions({ config, provider, registry, store, projectRoot: root });
  const { controller } = await sessions.open({ kind: 'new' });
  judgeCalls(controller);
  const run = (input: string) => drain(controller.run(input, { signal: new AbortController().signal }));
  return { root, provider, registry, controller, run, writer: writer as DiskFullSwitch, sessions };
}

function ends(events: AgentEvent[]) {
  return events.filter((event): event is Extract<AgentEvent, { type: 'turn_end' }> => event.type === 'turn_end');
}

describe.runIf(existsSync('/dev/full'))('a turn that throws still ends cleanly', () => {
  it('a session write failing mid-turn (ENOSPC) closes the round as error, and the next turn works', async () => {
    const t = await compose([act('LS', { path: '.' }), finish('second turn answer')]);
    let calls = 0;
    const original = t.provider.stream.bind(t.provider);
    t.provider.stream = (request, signal) => {
      calls += 1;
      if (calls === 1) t.writer.failing = true; // the disk fills while the model thinks
      return original(request, signal);
    };
    const failed = await t.run('list the files');
    expect(ends(failed)).toHaveLength(1);
    const end = ends(failed)[0];
    expect(end).toMatchObject({ reason: 'error', error: { code: 'SESSION_WRITE_FAILED' } });
    expect(end?.answer.split('\n')).toHaveLength(1);
    // Names the file that failed (the injected /dev/full) and the kernel's cause.
    expect(end?.answer).toMatch(
      /^The turn failed: cannot write session file \/dev\/full: no space left on the device \(ENOSPC\)$/,
    );
    expect(t.controller.history().at(-1)?.metadata.roundEnd).toBe('error');

    t.writer.failing = false;
    const next = await t.run('try again');
    expect(ends(next)).toMatchObject([{ reason: 'finish', answer: 'second turn answer' }]);
    const prompt = userText(t.provider.requests.at(-1));
    expect(prompt).toContain('# Request\n\nlist the files');
    expect(prompt).not.toMatch(/still open/);
    // What the disk did get is a valid history the next `mca -c` can load.
    const lines = readFileSync(t.writer.path, 'utf8').trim().split('\n');
    expect(lines.at(-1)).toContain('second turn answer');
  });

  it('a failure on the very first write (the user message) also ends with one turn_end and a usable session', async () => {
    const t = await compose([finish('works now')]);
    t.writer.failing = true;
    const failed = await t.run('hello');
    expect(ends(failed)).toMatchObject([{ reason: 'error', error: { code: 'SESSION_WRITE_FAILED' } }]);
    expect(t.provider.calls).toBe(0);
    t.writer.failing = false;
    expect(ends(await t.run('hello again'))).toMatchObject([{ reason: 'finish', answer: 'works now' }]);
  });

  it('an unexpected exception (a bug in a tool) is INTERNAL_ERROR in one line, and the next turn works', async () => {
    const t = await compose([act('LS', { path: '.' }), finish('fine')]);
    const registry = t.registry;
    const original = registry.run.bind(registry);
    registry.run = () => {
      registry.run = original;
      throw new TypeError('boom\n    at somewhere (file.js:1:1)');
    };
    const failed = await t.run('first');
    expect(ends(failed)).toMatchObject([
      { reason: 'error', answer: 'The turn failed: boom', error: { code: 'INTERNAL_ERROR' } },
    ]);
    expect(t.controller.history().at(-1)?.metadata.roundEnd).toBe('error');
    expect(ends(await t.run('second'))).toMatchObject([{ reason: 'finish', answer: 'fine' }]);
  });
});

describe('the user input is on disk before a compaction starts', () => {
  it('while the summary request is still running, the session file already holds the new input', async () => {
    let sessionPath = '';
    let onDiskDuringSummary = '';
    const steps: ScriptedStep[] = [];
    for (let round = 1; round <= 3; round += 1) steps.push(finish(`answer ${round}`));
    // The summary request: look at the disk now (a kill -9 here must not lose the input).
    steps.push(() => {
      onDiskDuringSummary = readFileSync(sessionPath, 'utf8');
      return { text: '## 📌 Archived Session Summary\nrounds 1-2' };
    });
    steps.push(finish('after compaction'));
    const t = await compose(steps, {
      MCA_CONTEXT_WINDOW: '20000',
      MCA_MIN_RETAIN_ROUNDS: '1',
    });
    sessionPath = t.writer.path;
    for (let round = 1; round <= 3; round += 1) await t.run(`question ${round} ${'x'.repeat(4_000)}`);
    const events = await t.run(`the input that must survive ${'y'.repeat(40_000)}`);
    expect(events.some((event) => event.type === 'compaction_start')).toBe(true);
    expect(onDiskDuringSummary).toContain('the input that must survive');
  });
});

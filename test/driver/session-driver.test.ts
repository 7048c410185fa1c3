/**
 * The SessionDriver without any UI: routing, the queue, interrupt, the one copy of the mode, session switching.
 * Asserted from the controller's side (what each turn was given) and from the events a front end receives.
 */
import { describe, expect, it } from 'vitest';
import type { CommandExpansion, CustomCommandsPort } from '../../src/driver/custom-commands-port.js';
import type { DriverEvent } from '../../src/driver/driver-events.js';
import type { PermissionBroker } from '../../src/driver/permission-broker.js';
import { SessionDriver } from '../../src/driver/session-driver.js';
import type { ParsedSlash } from '../../src/driver/slash-parse.js';
import type { UserDecision } from '../../src/driver/permission-broker.js';
import {
  aborted,
  answerScript,
  deferred,
  FakeController,
  FakeSessions,
  turnEnd,
  turnStart,
} from '../ui/fake-controller.js';

function recordingPort(): CustomCommandsPort & { expansions: CommandExpansion[] } {
  const expansions: CommandExpansion[] = [];
  return {
    expansions,
    list: [{ name: 'probe', usage: '/probe', description: 'probe (user)' }],
    match: (text) => (text.startsWith('/probe') ? { name: 'probe', args: text.slice(7) } : undefined),
    expand: async (_name, args, how) => {
      expansions.push(how);
      const seen = await how.decisions.decide(
        { id: 'toolu_probe', name: 'Bash', input: { command: 'touch x' }, source: 'command' },
        { tool: 'Bash', title: 'Bash(touch x)', input: { command: 'touch x' }, kind: 'exec' },
      );
      return `expanded ${args}: ${seen.behavior === 'deny' ? (seen.message ?? 'denied') : 'allowed'}`;
    },
  };
}

function collect(driver: SessionDriver): DriverEvent[] {
  const events: DriverEvent[] = [];
  driver.subscribe((event) => events.push(event));
  return events;
}

describe('SessionDriver', () => {
  it('queues lines submitted while a turn runs and sends them in order; the newest can be dropped', async () => {
    const gate = deferred();
    const controller = new FakeController('s1', async function* ({ input }) {
      yield turnStart(input);
      if (input === 'first') await gate.promise;
      yield turnEnd('answer', `re ${input}`);
    });
    const driver = new SessionDriver({ sessions: new FakeSessions(controller) });
    driver.submit('first');
    driver.submit('second');
    driver.submit('third');
    driver.submit('fourth');
    expect(driver.queue).toEqual(['second', 'third', 'fourth']);
    expect(driver.dropQueued()).toBe(true);
    gate.resolve();
    await waitFor(() => controller.runs.length === 3 && driver.busy === null);
    expect(controller.runs.map((run) => run.input)).toEqual(['first', 'second', 'third']);
  });

  it('a command that only shows something (/agents, /skills, /help) runs at once while a turn runs', async () => {
    const gate = deferred();
    const controller = new FakeController('s1', async function* ({ input }) {
      yield turnStart(input);
      await gate.promise;
      yield turnEnd('answer', `re ${input}`);
    });
    const shown: string[] = [];
    const driver = new SessionDriver({
      sessions: new FakeSessions(controller),
      slash: (parsed) => shown.push(parsed.name),
    });
    driver.submit('working');
    driver.submit('/agents');
    driver.submit('/skills');
    driver.submit('/help');
    driver.submit('/clear');
    expect(shown).toEqual(['agents', 'skills', 'help']);
    expect(driver.queue).toEqual(['/clear']);
    gate.resolve();
    await waitFor(() => driver.busy === null && driver.queue.length === 0);
    expect(shown).toEqual(['agents', 'skills', 'help', 'clear']);
  });

  it('ACP routing: the driver runs its own /compact and /init; any other / line is a prompt as typed', async () => {
    const controller = new FakeController('s1', answerScript('ok'));
    const driver = new SessionDriver({ sessions: new FakeSessions(controller), driverCommands: true });
    const events = collect(driver);
    await driver.run('/compact keep the API notes');
    await driver.run('/init');
    await driver.run('/help');
    expect(controller.compactions.map((compaction) => compaction.focus)).toEqual(['keep the API notes']);
    expect(controller.runs[0]?.input).toContain('CLAUDE.md');
    expect(events.filter((event) => event.type === 'prompt').map((event) => event.text)).toEqual(['/init', '/help']);
    expect(controller.runs[1]?.input).toBe('/help');
  });

  it('-p routing: built-in slash commands and ! lines go to the model as typed; a custom command expands', async () => {
    const controller = new FakeController('s1', answerScript('ok'));
    const port = recordingPort();
    const driver = new SessionDriver({ sessions: new FakeSessions(controller), customCommands: port });
    await driver.run('/help');
    await driver.run('!ls');
    await driver.run('/probe x');
    expect(controller.runs.map((run) => run.input).slice(0, 2)).toEqual(['/help', '!ls']);
    expect(controller.runs[2]?.input).toMatch(/^expanded x: Bash\(touch x\) needs permission/);
  });

  it('REPL routing: slash commands reach the front, ! lines the shell runner and then the next turn', async () => {
    const controller = new FakeController('s1', answerScript('ok'));
    const slash: ParsedSlash[] = [];
    const driver = new SessionDriver({
      sessions: new FakeSessions(controller),
      slash: (parsed) => slash.push(parsed),
      shellLines: {
        runner: async (command) => ({
          status: 'success',
          data: { stdout: `ran ${command}` },
          text: '',
          stats: { durationMs: 1 },
          context: {},
        }),
      },
    });
    const events = collect(driver);
    await driver.run('/compact focus');
    await driver.run('!echo hi');
    await driver.run('what happened?');
    expect(slash).toEqual([{ kind: 'command', name: 'compact', args: 'focus' }]);
    expect(events.filter((event) => event.type === 'shell_end')).toHaveLength(1);
    const input = controller.runs[0]?.input ?? '';
    expect(input).toContain('<user-shell-command>');
    expect(input).toContain('$ echo hi');
    expect(input.endsWith('what happened?')).toBe(true);
  });

  it("judges a custom command's ! lines in the mode set last (Shift+Tab), and keeps the mode across /clear", async () => {
    const sessions = new FakeSessions(new FakeController('s1', answerScript('ok')));
    const port = recordingPort();
    const driver = new SessionDriver({ sessions, customCommands: port });
    driver.cycleMode();
    driver.cycleMode();
    expect(driver.mode).toBe('plan');
    await driver.run('/probe a');
    expect(sessions.active.runs[0]?.input).toMatch(/^expanded a: plan mode is on/);
    await driver.newSession();
    expect(sessions.created[0]?.permissionMode).toBe('plan');
    await driver.run('/probe b');
    expect(sessions.created[0]?.runs[0]?.input).toMatch(/^expanded b: plan mode is on/);
  });

  it("REPL: a custom command's model: runs its turn on that model, then the user's model is back", async () => {
    const seen: string[] = [];
    const controller: FakeController = new FakeController('s1', async function* ({ input }) {
      seen.push(`${input} @ ${controller.model}`);
      yield turnStart(input);
      yield turnEnd('answer', 'ok');
    });
    const port: CustomCommandsPort = {
      list: [{ name: 'fast', usage: '/fast', description: 'fast (user)' }],
      match: (text) => (text.startsWith('/fast') ? { name: 'fast', args: '', model: 'claude-haiku-4-5' } : undefined),
      expand: async () => 'expanded fast',
    };
    const driver = new SessionDriver({
      sessions: new FakeSessions(controller),
      customCommands: port,
      applyCommandModel: 'turn',
    });
    const events = collect(driver);
    await driver.run('/fast');
    await driver.run('plain');
    expect(seen).toEqual(['expanded fast @ claude-haiku-4-5', 'plain @ fake-model']);
    expect(driver.model).toBe('fake-model');
    expect(events.filter((event) => event.type === 'model')).toEqual([
      { type: 'model', model: 'claude-haiku-4-5' },
      { type: 'model', model: 'fake-model' },
    ]);
  });

  it('interrupt answers the open question "no" and aborts the turn; the broker follows a new session', async () => {
    const asked: string[] = [];
    let pending: ((decision: UserDecision) => void) | undefined;
    const broker: PermissionBroker = {
      ask: (request) =>
        new Promise((resolve) => {
          asked.push(request.title);
          pending = resolve;
        }),
      cancel: (reason) => pending?.({ approved: false, reason }),
    };
    const decisions: UserDecision[] = [];
    const controller = new FakeController('s1', async function* ({ input, approve, signal }) {
      yield turnStart(input);
      decisions.push(await approve({ tool: 'Bash', title: 'Bash(ls)', input: { command: 'ls' } }));
      await aborted(signal);
      yield turnEnd('interrupted', 'Interrupted by user.');
    });
    const sessions = new FakeSessions(controller);
    const driver = new SessionDriver({ sessions, broker });
    const done = driver.run('go');
    await waitFor(() => asked.length === 1);
    driver.interrupt();
    await done;
    expect(decisions).toEqual([{ approved: false, reason: 'Interrupted by the user.' }]);
    await driver.newSession();
    expect(sessions.created[0]?.approver).toBeTypeOf('function');
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !check(); attempt++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

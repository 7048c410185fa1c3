/**
 * The driver's session-level hooks with a real hook script that logs what it read: SessionStart before the first
 * prompt and on /clear (with SessionEnd), PreCompact with /compact's focus then SessionStart `compact`, and their
 * context going with the next prompt. Asserted from what the hook read and what the controller was given.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionDriver } from '../../src/driver/session-driver.js';
import { openHooks } from '../../src/hooks/hook-sources.js';
import { tempProject } from '../helpers/temp-project.js';
import { answerScript, FakeController, FakeSessions } from '../ui/fake-controller.js';

async function driverWithLoggingHooks() {
  const { root, home } = tempProject('mca-driver-hooks-');
  const userHome = join(dirname(root), 'userhome');
  mkdirSync(userHome);
  mkdirSync(home, { recursive: true });
  const script = join(root, 'log.sh');
  writeFileSync(
    script,
    '#!/bin/sh\ninput=$(cat)\necho "$input" >> "$CLAUDE_PROJECT_DIR/events.jsonl"\n' +
      'case "$input" in *\'"SessionStart"\'*) echo "context from start";; esac\n',
  );
  chmodSync(script, 0o755);
  const all = [{ hooks: [{ type: 'command', command: './log.sh' }] }];
  const hooks = { SessionStart: all, SessionEnd: all, PreCompact: all, UserPromptSubmit: all };
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks }));
  const opened = await openHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: false });
  const controller = new FakeController('s1', answerScript('ok'));
  const sessions = new FakeSessions(controller);
  const driver = new SessionDriver({
    sessions,
    hooks: { opened, transcriptPathOf: (id) => `/sessions/${id}.jsonl`, cwd: root, startSource: 'startup' },
  });
  const events = () =>
    readFileSync(join(root, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { driver, controller, sessions, events };
}

describe('SessionDriver with hooks', () => {
  it('SessionStart before the first prompt, its context with it; /clear ends and starts; /compact runs PreCompact', async () => {
    const { driver, controller, sessions, events } = await driverWithLoggingHooks();
    await driver.run('first');
    expect(controller.runs[0]?.input).toBe(
      'first\n\n<system-reminder>\nSessionStart hook additional context:\ncontext from start\n</system-reminder>',
    );
    await driver.compact('keep the parser');
    await driver.newSession();
    await driver.run('after clear');
    await driver.close('prompt_input_exit');
    const seen = events().map((event) => [
      event.hook_event_name,
      event.source ?? event.reason ?? event.trigger ?? event.prompt,
      event.transcript_path,
    ]);
    expect(seen).toEqual([
      ['SessionStart', 'startup', '/sessions/s1.jsonl'],
      ['UserPromptSubmit', 'first', '/sessions/s1.jsonl'],
      ['PreCompact', 'manual', '/sessions/s1.jsonl'],
      ['SessionStart', 'compact', '/sessions/s1.jsonl'],
      ['SessionEnd', 'clear', '/sessions/s1.jsonl'],
      ['SessionStart', 'clear', '/sessions/session-new1.jsonl'],
      ['UserPromptSubmit', 'after clear', '/sessions/session-new1.jsonl'],
      ['SessionEnd', 'prompt_input_exit', '/sessions/session-new1.jsonl'],
    ]);
    expect(events()[2]?.custom_instructions).toBe('keep the parser');
    expect(sessions.created[0]?.runs[0]?.input).toContain('context from start');
  });
});

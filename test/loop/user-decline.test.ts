/**
 * Esc or "No" at the REPL's permission prompt ends the turn (no further model call) and the model learns of it on
 * the next turn; "No, and tell mca what to do instead" keeps the turn going with the reason.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness, lastTurnEnd, userText } from '../helpers/agent-harness.js';
import { act, finish } from '../helpers/scripted-provider.js';

const TOUCH = { command: 'touch made-by-bash' };

describe('CodeAgent: the user declines a tool', () => {
  it('ends the turn after the declined step and tells the model on the next turn', async () => {
    const h = await createHarness([act('Bash', TOUCH), finish('should never be asked'), finish('ok, not running it')], {
      env: { MCA_PERMISSION_MODE: 'default' },
    });
    const asked: string[] = [];
    h.setBroker(async (request) => {
      asked.push(request.title);
      return { approved: false, reason: 'The user declined.', endTurn: true };
    });
    const events = await h.turn('make the file');
    expect(asked).toEqual(['Bash(touch made-by-bash)']);
    expect(h.provider.requests).toHaveLength(1);
    expect(existsSync(join(h.projectRoot, 'made-by-bash'))).toBe(false);
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'interrupted', error: { code: 'USER_DECLINED' } });

    await h.turn('what happened?');
    const next = userText(h.provider.requests[1]);
    expect(next).toContain('PERMISSION_DENIED');
    expect(next).toContain('The user declined Bash(touch made-by-bash) and stopped the turn');
  });

  it('keeps the turn going with the reason when the user says what to do instead', async () => {
    const h = await createHarness([act('Bash', TOUCH), finish('understood')], {
      env: { MCA_PERMISSION_MODE: 'default' },
    });
    h.setBroker(async () => ({ approved: false, reason: 'use the Write tool instead' }));
    const events = await h.turn('make the file');
    expect(h.provider.requests).toHaveLength(2);
    expect(userText(h.provider.requests[1])).toContain('Reason: use the Write tool instead.');
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'finish', answer: 'understood' });
  });
});

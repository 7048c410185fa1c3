/**
 * Issue 23, class 8 in-process: the agent loop with a scripted model calls the JS Grep with a catastrophic regex.
 * The model's next request carries the TIMEOUT observation, and Ctrl-C (the turn's abort signal) ends the turn
 * while the regex is still running.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, lastTurnEnd, userText } from '../helpers/agent-harness.js';
import { act, finish } from '../helpers/scripted-provider.js';

const STUCK = `${'a'.repeat(44)}!\n`;

afterEach(() => {
  delete process.env.MCA_GREP_ENGINE;
  delete process.env.MCA_TOOL_DEADLINE_MS;
});

describe('a Grep pattern that never finishes', () => {
  for (const pattern of ['(a+)+$', '^(a|a?)+$', '(\\w+\\s?)*!x']) {
    it(`${pattern}: the model gets TIMEOUT and the turn goes on`, async () => {
      process.env.MCA_GREP_ENGINE = 'js';
      process.env.MCA_TOOL_DEADLINE_MS = '700';
      const harness = await createHarness([act('Grep', { pattern, path: 'src' }), finish('gave up on it')], {
        files: { 'src/min.txt': STUCK },
      });
      const events = await harness.turn('find it');
      expect(lastTurnEnd(events)).toMatchObject({ reason: 'finish' });
      const next = userText(harness.provider.requests[1]);
      expect(next).toContain('TIMEOUT');
      expect(next).toContain('Grep was stopped after 700 ms');
    });
  }

  it('Ctrl-C during the stuck Grep ends the turn as interrupted, long before the deadline', async () => {
    process.env.MCA_GREP_ENGINE = 'js';
    process.env.MCA_TOOL_DEADLINE_MS = '120000';
    const harness = await createHarness([act('Grep', { pattern: '(a+)+$' }), finish('unreachable')], {
      files: { 'src/min.txt': STUCK },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const events = await harness.turn('find it', controller.signal);
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'interrupted' });
    expect(harness.provider.requests).toHaveLength(1);
  });
});

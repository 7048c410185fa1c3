import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness, lastTurnEnd, systemText, userText } from '../helpers/agent-harness.js';
import { act, fail, finish, reply } from '../helpers/scripted-provider.js';

const MATH = 'export const add = (a, b) => a - b;\n';

describe('CodeAgent: one turn', () => {
  it('runs Read → Edit → Finish, changes the file and ends with the answer', async () => {
    const h = await createHarness(
      [
        act('Read', { path: 'math.js' }),
        act('Edit', { path: 'math.js', old_string: 'a - b', new_string: 'a + b' }),
        finish('Fixed add.'),
      ],
      { files: { 'math.js': MATH } },
    );
    const events = await h.turn('fix @math.js');
    expect(readFileSync(join(h.projectRoot, 'math.js'), 'utf8')).toBe('export const add = (a, b) => a + b;\n');
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'finish', answer: 'Fixed add.', steps: 3 });
    expect(
      events.filter((event) => event.type === 'tool_end').map((event) => event.type === 'tool_end' && event.tool),
    ).toEqual(['Read', 'Edit']);
    const roles = h.agent.history().map((message) => message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(h.agent.history().at(-1)?.metadata.roundEnd).toBe('finish');
  });

  it('shows the observation in full during the turn and after it (below the threshold); history stores it compressed', async () => {
    const long = Array.from({ length: 700 }, (_, index) => `line ${index + 1}`).join('\n');
    const h = await createHarness(
      [act('Read', { path: 'big.txt', limit: 2000 }), finish('read it'), finish('second turn')],
      { files: { 'big.txt': long } },
    );
    await h.turn('read big.txt');
    const second = userText(h.provider.requests[1]);
    expect(second).toContain('line 700');
    expect(second).toContain('Observation:');
    await h.turn('and now?');
    const third = userText(h.provider.requests[2]);
    // Engine v4: no forgetting without pressure: the closed round shows the result as the model first saw it.
    expect(third).toContain('line 700');
    expect(third.startsWith(second)).toBe(true);
    const toolMessage = h.agent.history().find((message) => message.role === 'tool');
    // History stores the compressed form (at most 500 lines) with the full result's reference.
    expect(toolMessage?.content).not.toContain('line 700');
    expect(JSON.parse(toolMessage?.content ?? '')).toMatchObject({ ref: toolMessage?.metadata.ref });
  });

  it('appends every message to the session file as it happens, compressed', async () => {
    const h = await createHarness([act('LS', { path: '.' }), finish('done')], { files: { 'a.txt': 'a' } });
    await h.turn('list');
    const file = readFileSync(h.store.pathOf(h.agent.sessionId), 'utf8');
    const records = file
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; message?: { role: string; content: string } });
    const messages = records.filter((record) => record.type === 'message').map((record) => record.message);
    expect(messages.map((message) => message?.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.parse(messages[2]?.content ?? '')).toMatchObject({ status: 'success' });
  });

  it('puts CODE_LAW.md into the system part of every request and the @file reminder into the first', async () => {
    const h = await createHarness([act('LS', {}), finish('ok')], {
      files: { 'code_law.md': 'Always use tabs.', 'src/a.ts': 'x' },
    });
    await h.turn('look at @src/a.ts');
    for (const request of h.provider.requests) expect(systemText(request)).toContain('Always use tabs.');
    expect(userText(h.provider.requests[0])).toContain('The user mentioned @src/a.ts.');
    expect(h.provider.requests[0]?.stopSequences).toEqual(['\nObservation:']);
  });

  it('takes a reply without an Action as the final answer', async () => {
    const h = await createHarness([reply('Just an answer.')]);
    expect(lastTurnEnd(await h.turn('hi'))).toMatchObject({ reason: 'answer', answer: 'Just an answer.' });
  });
});

describe('CodeAgent: bad model output', () => {
  it('answers a malformed action with INVALID_PARAM and goes on', async () => {
    const h = await createHarness([reply('Thought: x\nAction: Read["path" "a.ts" ]'), finish('recovered')]);
    const events = await h.turn('go');
    expect(lastTurnEnd(events)).toMatchObject({ reason: 'finish', answer: 'recovered' });
    expect(userText(h.provider.requests[1])).toMatch(/INVALID_PARAM.*not valid JSON/s);
  });

  it('ends the turn after three invalid actions in a row', async () => {
    const bad = reply('Action: Nope[{}]');
    const h = await createHarness([bad, reply('Action: Read[oops]'), bad]);
    const end = lastTurnEnd(await h.turn('go'));
    expect(end).toMatchObject({ reason: 'error', error: { code: 'INVALID_ACTIONS' } });
    expect(h.agent.history().at(-1)?.metadata.roundEnd).toBe('error');
  });

  it('answers the first streak of the same call with its earlier result and stops at the second', async () => {
    const same = act('LS', { path: '.' });
    const h = await createHarness([same, same, same, same, same, same], { env: {} });
    const end = lastTurnEnd(await h.turn('go'));
    expect(end).toMatchObject({ reason: 'error', error: { code: 'REPEATED_ACTION' } });
    // The streak's last call did not run: the next request tells the model and shows the result it had.
    const told = userText(h.provider.requests[h.config.maxRepeatedActions]);
    expect(told).toContain('same input 4 times in a row, so it was not run again');
    expect(told).toContain('Its result was:');
    // The same call once more right after: the turn ends there.
    expect(h.provider.calls).toBe(h.config.maxRepeatedActions + 1);
  });

  it('stops at the step limit with a clear message', async () => {
    const h = await createHarness([act('LS', { path: '.' }), act('Glob', { pattern: '*' })], {
      env: { MCA_MAX_STEPS: '2' },
    });
    expect(lastTurnEnd(await h.turn('go'))).toMatchObject({ reason: 'step_limit', steps: 2 });
  });

  it('closes the round with the provider error as one line', async () => {
    const h = await createHarness([fail('auth', 'ANTHROPIC_API_KEY was rejected (401)')]);
    expect(lastTurnEnd(await h.turn('go'))).toMatchObject({ reason: 'error', error: { code: 'auth' } });
  });
});

describe('CodeAgent: interrupts and crashes', () => {
  it('closes the round as interrupted when aborted mid-stream, and the next turn works', async () => {
    const h = await createHarness([{ hang: true }, finish('after')]);
    const abort = new AbortController();
    const pending = h.turn('slow', abort.signal);
    setTimeout(() => abort.abort(), 20);
    expect(lastTurnEnd(await pending)).toMatchObject({ reason: 'interrupted' });
    expect(lastTurnEnd(await h.turn('again'))).toMatchObject({ reason: 'finish', answer: 'after' });
    expect(userText(h.provider.requests[1])).toContain('# Request\n\nslow');
  });

  it('kills a running Bash when aborted', async () => {
    const h = await createHarness([act('Bash', { command: 'sleep 30' })]);
    const abort = new AbortController();
    const pending = h.turn('run', abort.signal);
    setTimeout(() => abort.abort(), 300);
    const events = await pending;
    expect(lastTurnEnd(events).reason).toBe('interrupted');
    const toolEnd = events.find((event) => event.type === 'tool_end');
    expect(toolEnd?.type === 'tool_end' && toolEnd.result.data).toMatchObject({ interrupted: true });
  });

  it('closes a round left open by a crash when the session is continued', async () => {
    const h = await createHarness([act('LS', {}), finish('done after crash')]);
    h.agent.history(); // the session exists; now simulate a crash after the user message
    const writer = await h.store.open(h.agent.sessionId);
    writer.writer.appendMessage({
      role: 'user',
      content: 'half done',
      metadata: { round: 1, ts: new Date().toISOString() },
    });
    writer.writer.close();
    const agent = await h.reopen({ kind: 'resume', sessionId: h.agent.sessionId });
    // A dead process's open round is closed as crashed (roundEnd 'error'), never as interrupted by the user.
    expect(agent.history().at(-1)?.metadata.roundEnd).toBe('error');
    expect(agent.history().at(-1)?.content).toMatch(/mca stopped/);
    await h.turn('continue');
    expect(userText(h.provider.requests[0])).toContain('[user] half done');
  });
});

describe('CodeAgent: sessions', () => {
  it('restores the todo list when a session is continued', async () => {
    const todos = [
      { content: 'write parser', status: 'completed' },
      { content: 'write tests', status: 'in_progress' },
    ];
    const h = await createHarness([act('TodoWrite', { todos }), finish('planned'), finish('next')]);
    await h.turn('plan it');
    const agent = await h.reopen();
    expect(agent.todos()).toEqual(todos);
    await h.turn('go on');
    expect(userText(h.provider.requests.at(-1))).toContain('[1/2] done · now: write tests');
  });
});

import { describe, expect, it } from 'vitest';
import type { MappedAction } from '../../bench/replay/action-map.js';
import { replay } from '../../bench/replay/driver.js';
import { carriesNeed, contentNeeds, missedNeeds } from '../../bench/replay/fidelity.js';
import type { ReplayStep, ReplayTask } from '../../bench/replay/strategy.js';
import { revisitOf, toRevisitDays, REVISIT_GAP } from '../../bench/replay/workloads.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { NaiveStrategy } from '../../bench/replay/peers/naive.js';
import { bashStep, options, readingTask } from './replay-fixtures.js';

const VIEW = ['def total(items):', '    result = sum(item.price for item in items)', '    return result'].join('\n');

function read(path: string): ReplayStep {
  const numbered = VIEW.split('\n')
    .map((line, index) => `${index + 1}\t${line}`)
    .join('\n');
  const data = { path, start_line: 1, end_line: 3, total_lines: 3, content: numbered, truncated: false, mtime_ms: 0 };
  const action: MappedAction = { tool: 'Read', input: { path }, envelope: successEnvelope(data, numbered) };
  const call = { tool: 'bash', input: { command: `cat ${path}` }, output: numbered };
  return { thought: 'read it', action, call, recordedCall: `bash ${JSON.stringify(call.input)}` };
}

function edit(path: string, oldString: string): ReplayStep {
  const input = { path, old_string: oldString, new_string: 'return 0' };
  const data = { path, applied: true, replacements: 1, diff: '' };
  const action: MappedAction = { tool: 'Edit', input, envelope: successEnvelope(data, 'edited') };
  return { thought: 'fix it', action, call: { tool: 'edit', input, output: 'edited' } };
}

function task(name: string, steps: ReplayStep[]): ReplayTask {
  return { name, task: name, turns: [{ text: name, steps }] };
}

describe('content figure', () => {
  it("asks for an Edit's old text and a re-read file's earlier view only when they appeared earlier", () => {
    const first = read('src/cart.py');
    const blind = edit('src/other.py', 'never shown anywhere before');
    const fix = edit('src/cart.py', '    return result');
    const again = read('src/cart.py');
    const needs = contentNeeds([task('t', [first, blind, fix, again])]);
    expect(needs.get(first)).toEqual([]);
    expect(needs.get(blind)?.map((need) => need.kind)).toEqual([]);
    expect(needs.get(fix)?.map((need) => need.kind)).toEqual(['edit', 'path']);
    expect(needs.get(again)?.map((need) => need.kind)).toEqual(['reread', 'path']);
  });

  it('finds content verbatim or JSON-escaped, and charges a missing file once, not once more for its path', () => {
    const fix = edit('src/cart.py', '    return result');
    const needs = contentNeeds([task('t', [read('src/cart.py'), fix])]).get(fix) ?? [];
    const compressed = JSON.stringify({ data: { content: `3\t    return result\nmore` } });
    expect(needs.every((need) => carriesNeed([{ text: `src/cart.py ${compressed}` }], need))).toBe(true);
    expect(missedNeeds([{ text: 'src/cart.py only the path' }], needs).map((need) => need.kind)).toEqual(['edit']);
    expect(missedNeeds([{ text: 'nothing' }], needs).map((need) => need.kind)).toEqual(['edit']);
  });

  it('prices a miss as one more call that re-sends the request with the recovered content', async () => {
    // A strategy that never shows earlier steps: every later need is a miss.
    const forgetful = () => {
      const strategy = new NaiveStrategy(options(200_000));
      const nextCall = strategy.nextCall.bind(strategy);
      strategy.nextCall = async () => {
        strategy.messages = strategy.messages.slice(-1);
        return nextCall();
      };
      return strategy;
    };
    const steps = [
      read('src/cart.py'),
      bashStep('pytest', 100),
      edit('src/cart.py', '    return result'),
      { thought: '', answer: 'done' },
    ];
    const forgot = await replay([[task('t', steps)]], forgetful, 200_000);
    const kept = await replay([[task('t', steps)]], () => new NaiveStrategy(options(200_000)), 200_000);
    expect(kept.forgetting).toEqual({ misses: 0, dollars: 0, inputTokens: 0 });
    expect(kept.memory.overall).toMatchObject({ contentAsked: 1, contentPresent: 1 });
    expect(forgot.forgetting.misses).toBe(1);
    expect(forgot.forgetting.dollars).toBeGreaterThan(0);
    expect(forgot.memory.overall).toMatchObject({ contentAsked: 1, contentPresent: 0 });
  });
});

describe('revisit workload', () => {
  it('returns to each task REVISIT_GAP tasks later with copies of its steps on its main file', () => {
    const tasks = Array.from({ length: REVISIT_GAP + 2 }, (_, index) => readingTask(`t${index}`, 2, 50));
    const [day] = toRevisitDays(tasks, 15);
    expect(day?.map((entry) => entry.name)).toEqual([
      ...tasks.slice(0, REVISIT_GAP + 1).map((entry) => entry.name),
      't0 (revisit)',
      `t${REVISIT_GAP + 1}`,
      't1 (revisit)',
    ]);
    const revisit = revisitOf(tasks[0]!);
    const steps = revisit?.turns[0]?.steps ?? [];
    expect(steps.map((step) => step.action?.input.path ?? 'answer')).toEqual(['t0/f0.py', 'answer']);
    // Copies: the recorded step is not the same object (the memory figures key on steps).
    expect(steps[0]).not.toBe(tasks[0]?.turns[0]?.steps[0]);
    expect(revisit?.task).not.toContain('t0/f0.py');
  });
});

describe('cache rewrites', () => {
  it('counts a call that did not read all of the previous cached prefix, and none for an append-only chat', async () => {
    const steps = [
      read('src/cart.py'),
      bashStep('pytest', 3_000),
      bashStep('pytest -x', 3_000),
      { thought: '', answer: 'ok' },
    ];
    const appendOnly = await replay([[task('t', steps)]], () => new NaiveStrategy(options(200_000)), 200_000);
    expect(appendOnly.cacheRewrites).toBe(0);
    // Before its third call this strategy rewrites the first tool result (as a pruning policy would).
    const pruning = () => {
      const strategy = new NaiveStrategy(options(200_000));
      const nextCall = strategy.nextCall.bind(strategy);
      let calls = 0;
      strategy.nextCall = async () => {
        calls += 1;
        const first = strategy.messages[2];
        if (calls === 3 && first !== undefined) first.text = '[pruned]';
        return nextCall();
      };
      return strategy;
    };
    expect((await replay([[task('t', steps)]], pruning, 200_000)).cacheRewrites).toBe(1);
  });
});

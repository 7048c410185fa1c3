import { describe, expect, it } from 'vitest';
import { ContextBuilder, type ScratchpadStep } from '../../src/context/context-builder.js';
import { buildWithinBudget, FULL_TURN, type InTurnState } from '../../src/context/turn-budget.js';

const builder = new ContextBuilder({ systemPrompt: 'SYSTEM PROMPT', memory: { read: () => undefined } });

function step(index: number): ScratchpadStep {
  return {
    assistant: `Thought: step ${index}\nAction: Read[{"path":"f${index}.ts"}]`,
    observation: `FULL-${index} ${'x'.repeat(4000)}`,
    compressed: `{"status":"success","data":{"path":"f${index}.ts","lines":100},"ref":"r${index}"}`,
    tool: 'Read',
  };
}

/** The part of two prompts that is the same from the start: what a provider's cache can serve. */
function commonPrefix(a: string, b: string): number {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at += 1;
  return at;
}

/** Runs one turn of `count` steps under `limit`, returning each step's prompt and ladder state. */
function runTurn(count: number, limit: number): Array<{ text: string; tokens: number; state: InTurnState }> {
  const steps: ScratchpadStep[] = [];
  let state = FULL_TURN;
  const prompts: Array<{ text: string; tokens: number; state: InTurnState }> = [];
  for (let index = 1; index <= count; index += 1) {
    steps.push(step(index));
    const built = buildWithinBudget(builder, { history: [], scratchpad: steps, question: 'Q' }, limit, state);
    state = built.state;
    prompts.push({ text: built.context.render(), tokens: built.context.totalTokens, state });
  }
  return prompts;
}

describe('the in-turn ladder (turn-budget.ts)', () => {
  it('keeps every step full while the turn fits', () => {
    const prompts = runTurn(6, 1_000_000);
    expect(prompts.at(-1)?.state).toEqual(FULL_TURN);
    for (let index = 1; index <= 6; index += 1) expect(prompts.at(-1)?.text).toContain(`FULL-${index} `);
  });

  it('shrinks older steps in batches that stay shrunk, so most steps extend the previous prompt unchanged', () => {
    // Each full step is ~1,360 tokens; the limit holds about 22 of them, as a 100k budget holds ~20 big Reads.
    const limit = 30_000;
    const prompts = runTurn(60, limit);
    const last = prompts.at(-1)!;
    expect(last.state.level).toBeGreaterThan(0);
    expect(last.text).toContain('FULL-60 ');
    let shrunk = 0;
    for (const { text, state } of prompts) {
      expect(builder.build({ history: [], scratchpad: [], question: text }).totalTokens).toBeLessThanOrEqual(
        limit + 100,
      );
      // A step once shrunk never shows its full observation again.
      expect(state.shrunkSteps).toBeGreaterThanOrEqual(shrunk);
      shrunk = state.shrunkSteps;
      for (let index = 1; index <= shrunk; index += 1) expect(text).not.toContain(`FULL-${index} `);
    }
    // A step that only adds to the turn keeps the previous prompt as its prefix (the cache serves all of it); only a
    // step that shrinks a new batch changes what came before. A window of "the newest 3" sliding every step would
    // change it on each of the ~38 steps after the first shrink.
    const rewrites = prompts.slice(1).filter((prompt, index) => {
      const previous = prompts[index]!.text;
      return commonPrefix(previous, prompt.text) < previous.length;
    }).length;
    expect(rewrites).toBeGreaterThan(0);
    expect(rewrites).toBeLessThanOrEqual(6);
  });

  it('climbs to one-line results and to a single full step when shrinking a batch is not enough', () => {
    const prompts = runTurn(12, 2_500);
    const last = prompts.at(-1)!;
    expect(last.state.level).toBe(3);
    expect(last.text).toContain('FULL-12 ');
    expect(last.text).not.toContain('FULL-11 ');
  });
});

/**
 * A subagent on another model is priced at its own model's rates: `-p --output-format json` lists both models in
 * `modelUsage`, each with the tokens its own requests used, and the total cost is their sum.
 */
import { dirname, join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { usageDollars } from '../../src/providers/model-prices.js';
import { ask, type Dirs, routedFake, type Routed, systemText, trust } from './support/subagent-fake.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const QUICK = [
  '---',
  'name: quick',
  'description: quick lookups',
  'model: claude-haiku-4-5',
  '---',
  'You are QUICK.',
  '',
];

interface ModelRow {
  inputTokens: number;
  outputTokens: number;
  costUSD: number;
}

describe('subagent usage per model', () => {
  it("modelUsage has the parent's model and the subagent's, each priced at its own rates", async () => {
    const project = tempProject('mca-subagent-usage-', { '.claude/agents/quick.md': QUICK.join('\n') });
    const userHome = join(dirname(project.root), 'userhome');
    mkdirSync(userHome, { recursive: true });
    const dirs: Dirs = { ...project, userHome };
    await trust(dirs);
    const log: Routed[] = [];
    server = await routedFake(
      [
        {
          name: 'quick',
          match: (body) => systemText(body).includes('You are QUICK'),
          reply: () => ({ text: 'QUICK-ANSWER', usage: { input_tokens: 40_000, output_tokens: 1_000 } }),
        },
        {
          name: 'parent',
          match: () => true,
          reply: (index) =>
            index === 0
              ? {
                  text: '',
                  calls: [
                    {
                      id: 'toolu_quick',
                      name: 'Agent',
                      input: { subagent_type: 'quick', description: 'q', prompt: 'look it up' },
                    },
                  ],
                  usage: { input_tokens: 1_000, output_tokens: 100 },
                }
              : { text: 'parent done', usage: { input_tokens: 2_000, output_tokens: 200 } },
        },
      ],
      log,
    );
    const run = await ask(dirs, server, 'go', ['--output-format', 'json', '--model', 'claude-sonnet-4-5']);
    expect(run.code).toBe(0);
    expect(log.map((entry) => [entry.route, entry.body.model])).toEqual([
      ['parent', 'claude-sonnet-4-5'],
      ['quick', 'claude-haiku-4-5'],
      ['parent', 'claude-sonnet-4-5'],
    ]);
    const result = JSON.parse(run.stdout) as {
      total_cost_usd: number;
      modelUsage: Record<string, ModelRow>;
      usage: { input_tokens: number };
    };
    expect(Object.keys(result.modelUsage).sort()).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    const haiku = result.modelUsage['claude-haiku-4-5']!;
    const sonnet = result.modelUsage['claude-sonnet-4-5']!;
    expect([haiku.inputTokens, haiku.outputTokens]).toEqual([40_000, 1_000]);
    expect([sonnet.inputTokens, sonnet.outputTokens]).toEqual([3_000, 300]);
    const at = (model: string, input: number, output: number) =>
      usageDollars(
        { inputTokens: input, outputTokens: output, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
        model,
      ) ?? Number.NaN;
    expect(haiku.costUSD).toBeCloseTo(at('claude-haiku-4-5', 40_000, 1_000), 10);
    expect(sonnet.costUSD).toBeCloseTo(at('claude-sonnet-4-5', 3_000, 300), 10);
    // Priced at the subagent's model, not the session's: the haiku share costs less than sonnet rates would.
    expect(haiku.costUSD).toBeLessThan(at('claude-sonnet-4-5', 40_000, 1_000));
    expect(result.total_cost_usd).toBeCloseTo(haiku.costUSD + sonnet.costUSD, 10);
    expect(result.usage.input_tokens).toBe(43_000);
  });
});

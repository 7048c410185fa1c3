/**
 * The hand-written config check (config-schema.ts) against the zod schema it replaced, kept here as the oracle:
 * for any mix of valid, boundary and hostile values, both accept the same inputs and produce the same config.
 * Then the error lines: each names the key, the file, variable or flag the value came from, and what was expected.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig, PERMISSION_MODES, PROVIDERS, TOOL_PROTOCOLS } from '../../src/config/config.js';
import { validateConfig } from '../../src/config/config-schema.js';
import { DEFAULT_PROFILE } from '../../src/config/model-profiles.js';

const price = z.strictObject({
  input: z.number().min(0),
  output: z.number().min(0),
  cacheWrite: z.number().min(0),
  cacheRead: z.number().min(0),
});

// eslint-disable-next-line no-control-regex -- model names must be printable (issue 23, class 10)
const PRINTABLE = /^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*$/u;
const modelName = z.string().min(1).max(200).regex(PRINTABLE);

/**
 * The zod schema of src/config/config.ts before the hand-written check replaced it, with what issue 23 added:
 * printable model names, modelCallTimeoutMs, a cap on codeLawMaxChars.
 */
const oracle = z
  .object({
    model: modelName.default('claude-sonnet-5-5'),
    summaryModel: modelName.optional(),
    contextWindow: z.number().int().min(4_000).max(10_000_000).default(DEFAULT_PROFILE.contextWindow),
    compressionThreshold: z.number().gt(0).lte(1).default(DEFAULT_PROFILE.compressionThreshold),
    minRetainRounds: z.number().int().min(1).max(1_000).default(DEFAULT_PROFILE.minRetainRounds),
    summaryTimeoutMs: z.number().int().min(1).max(3_600_000).default(120_000),
    maxSteps: z.number().int().min(1).max(1_000).default(50),
    maxOutputTokens: z.number().int().min(256).max(128_000).default(DEFAULT_PROFILE.maxOutputTokens),
    streamIdleTimeoutMs: z.number().int().min(100).max(3_600_000).default(90_000),
    modelCallTimeoutMs: z.number().int().min(1_000).max(21_600_000).default(1_800_000),
    maxRepeatedActions: z.number().int().min(2).max(100).default(4),
    maxRetries: z.number().int().min(0).max(20).default(4),
    retryBaseDelayMs: z.number().int().min(0).max(60_000).default(1_000),
    codeLawMaxChars: z.number().int().min(100).max(200_000).default(40_000),
    permissionMode: z.enum(PERMISSION_MODES).default('default'),
    provider: z.enum(PROVIDERS).default('anthropic'),
    toolProtocol: z.enum(TOOL_PROTOCOLS).default('native'),
    thinking: z.union([z.literal('off'), z.number().int().min(1_024).max(64_000)]).default('off'),
    baseUrl: z.string().url().optional(),
    openaiBaseUrl: z.string().url().optional(),
    mcaHome: z.string().min(1).refine(isAbsolute, 'must be an absolute path'),
    modelPrices: z.record(z.string().min(1), price).default({}),
  })
  .strict();

/** Every bound of every key, one either side, and the in-betweens of the fraction. */
const BOUNDARY_NUMBERS = [
  0, 1, 2, 4, 20, 100, 256, 1_000, 1_024, 4_000, 60_000, 64_000, 128_000, 200_000, 3_600_000, 10_000_000, 21_600_000,
]
  .flatMap((bound) => [bound - 1, bound, bound + 1])
  .concat([0.5, 1.5, -0, 1e-9, 0.999, 1.0001, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, -1.5]);

const SPECIAL_VALUES: unknown[] = [
  ...BOUNDARY_NUMBERS,
  ...['', ' ', 'off', 'on', 'native', 'text', 'xml', 'plan', 'yolo', 'openai', 'anthropic', 'acceptEdits', 'default'],
  ...['bypassPermissions', 'claude-x', '/abs/home', 'relative/home', '/', 'http://127.0.0.1:9/', ' https://a.io/v1 '],
  ...['http://a\tb/', 'not a url', 'http:x', 'file:///x', '1000'],
  ...['claude\u001b]2;owned\u0007', 'x\u009b31m', 'a\u202eb', 'm'.repeat(200), 'm'.repeat(201), 'naïve-模型'],
  null,
  true,
  [1],
  {},
  { m: { input: 1, output: 2, cacheWrite: 0, cacheRead: 0.5 } },
  { m: { input: 1, output: 2, cacheWrite: 0 } },
  { m: { input: 1, output: 2, cacheWrite: 0, cacheRead: -1 } },
  { m: { input: 1, output: 2, cacheWrite: 0, cacheRead: 0, other: 1 } },
  { '': { input: 1, output: 2, cacheWrite: 0, cacheRead: 0 } },
  { m: [1, 2, 3, 4] },
];

const anyValue = fc.oneof(
  fc.constantFrom(...SPECIAL_VALUES),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.dictionary(
    fc.constantFrom('', 'm', 'gpt-x'),
    fc.dictionary(
      fc.constantFrom('input', 'output', 'cacheWrite', 'cacheRead', 'other'),
      fc.oneof(fc.double(), fc.integer({ min: -2, max: 5 })),
    ),
    { maxKeys: 2 },
  ),
);

function verdicts(values: Record<string, unknown>): { actual: unknown; expected: unknown } {
  const expected = oracle.safeParse(values);
  let actual: unknown;
  try {
    actual = validateConfig(values);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    actual = 'refused';
  }
  return { actual, expected: expected.success ? expected.data : 'refused' };
}

const KEYS = [...Object.keys(oracle.shape), 'unknownKey'];

describe('config check: same verdict and result as the zod schema it replaced', () => {
  it('for every key with every boundary and odd value', () => {
    let compared = 0;
    for (const key of KEYS) {
      for (const value of SPECIAL_VALUES) {
        const { actual, expected } = verdicts({ mcaHome: '/home/u/.mca', [key]: value });
        expect({ key, value, result: actual }).toEqual({ key, value, result: expected });
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(1_500);
  });

  it('for any mix of keys and values', () => {
    const input = fc.dictionary(fc.constantFrom(...KEYS), anyValue, { maxKeys: 6 });
    fc.assert(
      fc.property(input, fc.constantFrom('/home/u/.mca', 'relative', undefined), (values, home) => {
        const { actual, expected } = verdicts(home === undefined ? values : { mcaHome: home, ...values });
        expect(actual).toEqual(expected);
      }),
      { numRuns: Number(process.env.MCA_FUZZ_RUNS ?? 2_000) },
    );
  });
});

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

function setup(userConfig?: unknown, projectConfig?: unknown): { home: string; project: string } {
  const root = mkdtempSync(join(tmpdir(), 'mca-config-check-'));
  roots.push(root);
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(join(project, '.mca'), { recursive: true });
  if (userConfig !== undefined) writeFileSync(join(home, 'config.json'), JSON.stringify(userConfig));
  if (projectConfig !== undefined) writeFileSync(join(project, '.mca', 'config.json'), JSON.stringify(projectConfig));
  return { home, project };
}

function problem(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('config errors: one line naming the key, its source and what was expected', () => {
  it('names the user file, the project file, the variable or the flag that set the bad value', () => {
    const user = setup({ maxRetries: 99 });
    expect(problem(() => loadConfig({ cwd: user.project, env: { MCA_HOME: user.home } }))).toBe(
      `invalid config value for "maxRetries" (in ${join(user.home, 'config.json')}): ` +
        'expected a whole number from 0 to 20, got 99',
    );
    const project = setup({}, { contextWindow: 'big' });
    expect(problem(() => loadConfig({ cwd: project.project, env: { MCA_HOME: project.home } }))).toMatch(
      /^invalid config value for "contextWindow" \(in \/.+\/\.mca\/config\.json\): expected a whole number from 4000 to 10000000, got "big"$/,
    );
    // The layer that set the value is named, even when a lower layer set the same key.
    const env = { MCA_HOME: project.home, MCA_CONTEXT_WINDOW: '12' };
    expect(problem(() => loadConfig({ cwd: project.project, env }))).toBe(
      'invalid config value for "contextWindow" (from MCA_CONTEXT_WINDOW): ' +
        'expected a whole number from 4000 to 10000000, got 12',
    );
    const flags = { maxSteps: 0 };
    expect(
      problem(() => loadConfig({ cwd: user.project, env: { MCA_HOME: user.home, MCA_MAX_RETRIES: '3' }, flags })),
    ).toBe('invalid config value for "maxSteps" (from --max-steps): expected a whole number from 1 to 1000, got 0');
    expect(
      problem(() =>
        loadConfig({ cwd: user.project, env: { MCA_HOME: user.home, MCA_MAX_RETRIES: '3', MCA_PROVIDER: 'azure' } }),
      ),
    ).toBe('invalid config value for "provider" (from MCA_PROVIDER): expected one of anthropic, openai, got "azure"');
  });

  it('refuses unknown keys and nested price rows by their full key; hostile keys stay one short line', () => {
    const unknown = setup({ modelz: 'x' });
    expect(problem(() => loadConfig({ cwd: unknown.project, env: { MCA_HOME: unknown.home } }))).toBe(
      `unknown config key "modelz" (in ${join(unknown.home, 'config.json')})`,
    );
    const prices = setup({ modelPrices: { m: { input: 1, output: -2, cacheWrite: 0, cacheRead: 0 } } });
    expect(problem(() => loadConfig({ cwd: prices.project, env: { MCA_HOME: prices.home } }))).toMatch(
      /^invalid config value for "modelPrices\.m\.output" \(in .+\): expected a price of at least 0, got -2$/,
    );
    const proto = setup(JSON.parse('{"__proto__": {"provider": "openai"}}'));
    expect(problem(() => loadConfig({ cwd: proto.project, env: { MCA_HOME: proto.home } }))).toMatch(
      /^unknown config key "__proto__"/,
    );
    const long = setup({ [`evil\u001b]0;title\u0007${'x'.repeat(500)}`]: 1 });
    const line = problem(() => loadConfig({ cwd: long.project, env: { MCA_HOME: long.home } }));
    expect(line).not.toMatch(/\p{Cc}/u);
    expect(line).not.toContain('\n');
    expect(line.length).toBeLessThan(200 + long.home.length);
  });

  it('keeps what a valid file sets, with URLs cleaned the way the zod schema cleaned them', () => {
    const { home, project } = setup({ baseUrl: ' http://127.0.0.1:9/v1 ', thinking: 2048, maxRetries: 0 });
    expect(loadConfig({ cwd: project, env: { MCA_HOME: home } })).toMatchObject({
      baseUrl: 'http://127.0.0.1:9/v1',
      thinking: 2048,
      maxRetries: 0,
      provider: 'anthropic',
    });
  });
});

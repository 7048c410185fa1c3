/**
 * API faults and misbehaving models, over the real binary and the loopback fake API. Each scenario checks the
 * exit code, the one line a user sees, that the session file is intact with every round closed, and that
 * `mca -c` then continues the same session.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import {
  act,
  closedSession,
  finish,
  isSummaryRequest,
  lastErrorLine,
  makeSandbox,
  runMca,
  userPrompts,
  type RunResult,
  type Sandbox,
} from './harness.js';
import { continueTurns, type Turn } from './in-process.js';
import { ResultLog } from './results.js';
import { finish as scriptedFinish, reply } from '../helpers/scripted-provider.js';

/** Prior turns that leave a context near the window, so the next turn compacts (2 rounds, min retain 1). */
const BIG_USAGE = { inputTokens: 190_000 };
const COMPACTING_ENV = { MCA_MIN_RETAIN_ROUNDS: '1' };
const SUMMARY = { text: '## 📌 Archived Session Summary\n- Round 1: answered "first".' };

interface Scenario {
  fault: string;
  script: FakeStep[];
  env?: Record<string, string>;
  args?: string[];
  /** Turns run (and finished, in-process) before the faulty one. */
  before?: Turn[];
  code: number;
  /** The last `mca:` line on stderr, or for exit 0 the answer on stdout. */
  line: RegExp;
  /** Other stderr lines that must appear (retries, compaction notices). */
  notices?: RegExp[];
  /** Requests the fake API must have received for the faulty turn. */
  requests?: number;
  /** Prompts of earlier rounds that are archived by design (compaction), not lost. */
  archived?: string[];
  /** Extra checks on the session after the faulty turn. */
  session?: (messages: Awaited<ReturnType<typeof closedSession>>['messages']) => void;
}

const compactingTurns: Turn[] = [
  { prompt: 'first', replies: [scriptedFinish('one')] },
  { prompt: 'second', replies: [reply('Thought: done\nAction: Finish[two]', BIG_USAGE)] },
];

/** Two short closed rounds: only an emergency (prompt too long) makes the next turn compact. */
const plainTurns: Turn[] = [
  { prompt: 'first', replies: [scriptedFinish('one')] },
  { prompt: 'second', replies: [scriptedFinish('two')] },
];

const read = act('Read', { path: 'a.ts' });
const retryLine = (what: RegExp) => new RegExp(`^mca: ${what.source}; retrying in \\d+\\.\\d s \\(attempt 1\\)$`, 'm');

const SCENARIOS: Scenario[] = [
  {
    fault: 'HTTP 429 with retry-after: 1, then success',
    script: [{ status: 429, headers: { 'retry-after': '1' } }, finish('ok after 429')],
    code: 0,
    line: /^ok after 429$/,
    notices: [
      /^mca: Anthropic API rate limit reached \(429\): fake rate_limit_error; retrying in 1\.0 s \(attempt 1\)$/m,
    ],
    requests: 2,
  },
  {
    fault: 'HTTP 429 on every attempt',
    script: [0, 1, 2].map(() => ({ status: 429, headers: { 'retry-after-ms': '20' } })),
    code: 1,
    line: /^mca: Anthropic API rate limit reached \(429\): fake rate_limit_error$/,
    requests: 3,
  },
  {
    fault: 'HTTP 500, then success',
    script: [{ status: 500 }, finish('ok after 500')],
    code: 0,
    line: /^ok after 500$/,
    notices: [retryLine(/Anthropic API server error \(500\): fake api_error/)],
    requests: 2,
  },
  {
    fault: 'HTTP 500 on every attempt',
    script: [0, 1, 2].map(() => ({ status: 500 })),
    code: 1,
    line: /^mca: Anthropic API server error \(500\): fake api_error$/,
    requests: 3,
  },
  {
    fault: 'HTTP 529 overloaded, then success',
    script: [{ status: 529 }, finish('ok after 529')],
    code: 0,
    line: /^ok after 529$/,
    notices: [retryLine(/Anthropic API is overloaded \(529\): fake overloaded_error/)],
    requests: 2,
  },
  {
    fault: 'HTTP 529 overloaded on every attempt',
    script: [0, 1, 2].map(() => ({ status: 529 })),
    code: 1,
    line: /^mca: Anthropic API is overloaded \(529\): fake overloaded_error$/,
    requests: 3,
  },
  {
    fault: 'overloaded_error sent inside a 200 stream, then success',
    script: [{ streamError: { type: 'overloaded_error', message: 'Overloaded' } }, finish('ok after stream error')],
    code: 0,
    line: /^ok after stream error$/,
    requests: 2,
  },
  {
    fault: 'HTTP 400 prompt too long: emergency compaction, then one retry',
    before: plainTurns,
    env: COMPACTING_ENV,
    script: [
      { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' },
      (body) => (isSummaryRequest(body) ? SUMMARY : finish('wrong order')),
      finish('ok after compaction'),
    ],
    code: 0,
    line: /^ok after compaction$/,
    requests: 3,
    archived: ['first'],
    session: (messages) => {
      const summaries = messages.filter((message) => message.role === 'summary');
      expect(summaries).toHaveLength(1);
      expect(summaries[0]?.metadata.coversRounds).toEqual([1, 1]);
    },
  },
  {
    fault: 'HTTP 400 prompt too long twice: no second compaction',
    before: plainTurns,
    env: COMPACTING_ENV,
    script: [
      { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' },
      SUMMARY,
      { status: 400, message: 'prompt is too long: 205000 tokens > 200000 maximum' },
    ],
    code: 1,
    line: /^mca: The prompt is too long for the model \(400\): prompt is too long: 205000 tokens > 200000 maximum$/,
    requests: 3,
    archived: ['first'],
  },
  {
    fault: 'HTTP 401 invalid key (not retried)',
    script: [{ status: 401, message: 'invalid x-api-key' }],
    code: 1,
    line: /^mca: ANTHROPIC_API_KEY was rejected \(401\): invalid x-api-key$/,
    requests: 1,
  },
  {
    fault: 'connection reset mid-stream after text arrived',
    script: [{ disconnect: true, text: 'Thought: I will read a.ts' }],
    code: 1,
    line: /^mca: (Connection to the Anthropic API failed|The Anthropic API stream ended).*$/,
    requests: 1,
  },
  {
    fault: 'connection reset before any text, then success',
    script: [{ disconnect: true, text: '' }, finish('ok after reset')],
    code: 0,
    line: /^ok after reset$/,
    requests: 2,
  },
  {
    fault: 'connection refused (nothing listening)',
    script: [],
    env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:CLOSED_PORT' },
    code: 1,
    line: /^mca: Could not reach the Anthropic API \(.*ECONNREFUSED.*\)\.$/,
  },
  {
    fault: 'stream stalls after headers (idle timeout), then success',
    env: { MCA_STREAM_IDLE_TIMEOUT_MS: '1500' },
    script: [{ hang: 'headers' }, finish('ok after stall')],
    code: 0,
    line: /^ok after stall$/,
    notices: [retryLine(/The Anthropic API sent nothing for 1\.5s; the stream was abandoned/)],
    requests: 2,
  },
  {
    fault: 'stream stalls on every attempt',
    env: { MCA_STREAM_IDLE_TIMEOUT_MS: '1500', MCA_MAX_RETRIES: '1' },
    script: [0, 1].map(() => ({ hang: 'headers' as const })),
    code: 1,
    line: /^mca: The Anthropic API sent nothing for 1\.5s; the stream was abandoned\.$/,
    requests: 2,
  },
  {
    fault: 'stream stalls mid-answer (after text)',
    env: { MCA_STREAM_IDLE_TIMEOUT_MS: '1500' },
    script: [{ hang: 'text', text: 'Thought: reading' }],
    code: 1,
    line: /^mca: The Anthropic API sent nothing for 1\.5s; the stream was abandoned\.$/,
    requests: 1,
  },
  {
    fault: 'slow summary (summary timeout): fallback keeps recent history',
    before: compactingTurns,
    env: { ...COMPACTING_ENV, MCA_SUMMARY_TIMEOUT_MS: '500' },
    script: [{ hang: true }, finish('ok after slow summary')],
    code: 0,
    line: /^ok after slow summary$/,
    notices: [/^mca: Summary generation timed out, keeping recent history only\.$/m],
    archived: ['first'],
  },
  {
    fault: 'empty summary: fallback keeps recent history',
    before: compactingTurns,
    env: COMPACTING_ENV,
    script: [{ text: '' }, finish('ok after empty summary')],
    code: 0,
    line: /^ok after empty summary$/,
    notices: [/^mca: Summary generation failed: the model returned an empty summary, keeping recent history only\.$/m],
    archived: ['first'],
  },
  {
    fault: 'summary without the template heading: fallback',
    before: compactingTurns,
    env: COMPACTING_ENV,
    script: [{ text: 'Sure! Here is a summary.' }, finish('ok after bad summary')],
    code: 0,
    line: /^ok after bad summary$/,
    notices: [/^mca: Summary generation failed: the summary does not follow the template.*, keeping recent/m],
    archived: ['first'],
  },
  {
    fault: 'model answers garbage (no Action): taken as the answer',
    script: [{ text: '%%%% ¯\\_(ツ)_/¯ }{][ \u0007 garbage' }],
    code: 0,
    line: /garbage$/,
    requests: 1,
  },
  {
    fault: 'model sends empty replies three times',
    script: [{ text: '' }, { text: '' }, { text: '' }],
    code: 1,
    line: /^mca: The model produced 3 invalid actions in a row \(last: the reply was empty\); stopping\.$/,
    requests: 3,
  },
  {
    fault: 'model loops on the same action',
    script: [read, read, read, read, read],
    code: 1,
    // Three reads run, the fourth is answered with the third's result, the fifth ends the turn.
    line: /^mca: The model repeated the same Read call 5 times in a row after it was told; stopping\.$/,
    requests: 5,
  },
  {
    fault: 'model names an unknown tool three times',
    script: [act('Frobnicate', { x: 1 }), act('Frobnicate', { x: 2 }), act('Teleport', {})],
    code: 1,
    line: /^mca: The model produced 3 invalid actions in a row \(last: unknown tool "Teleport"\); stopping\.$/,
    requests: 3,
  },
  {
    fault: 'model sends bad action JSON three times',
    script: [0, 1, 2].map((n) => ({ text: `Thought: t\nAction: Read[{"path": "a.ts", ${n}}` })),
    code: 1,
    line: /^mca: The model produced 3 invalid actions in a row \(last: .+\); stopping\.$/,
    requests: 3,
  },
  {
    fault: 'one bad action, then the model recovers',
    script: [{ text: 'Thought: t\nAction: Read{path a.ts}' }, read, finish('recovered')],
    code: 0,
    line: /^recovered$/,
    requests: 3,
  },
  {
    fault: 'model never finishes (step limit)',
    args: ['--max-steps', '2'],
    script: [act('Read', { path: 'a.ts' }), act('LS', {}), finish('too late')],
    code: 1,
    line: /^mca: Stopped after 2 steps without finishing/,
    requests: 2,
  },
];

const log = new ResultLog('faults');

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let refusedPort = 0;

async function runScenario(sandbox: Sandbox, scenario: Scenario): Promise<string> {
  const server = await startFakeAnthropic(scenario.script);
  try {
    const env = Object.fromEntries(
      Object.entries(scenario.env ?? {}).map(([name, value]) => [name, value.replace('CLOSED_PORT', `${refusedPort}`)]),
    );
    const sessionEnv = { ...(env.MCA_MIN_RETAIN_ROUNDS ? { MCA_MIN_RETAIN_ROUNDS: env.MCA_MIN_RETAIN_ROUNDS } : {}) };
    if (scenario.before) {
      const seeded = await continueTurns(sandbox, scenario.before, sessionEnv);
      expect(seeded.ends.map((end) => end.reason)).toEqual(scenario.before.map(() => 'finish'));
    }
    const args = [...(scenario.args ?? []), ...(scenario.before ? ['-c'] : []), '-p', 'faulty turn'];
    const result: RunResult = await runMca(sandbox, args, { baseUrl: server.url, env });
    const shown = scenario.code === 0 ? result.stdout.trimEnd() : lastErrorLine(result.stderr);
    expect(result.code, result.stderr).toBe(scenario.code);
    expect(shown).toMatch(scenario.line);
    expect(result.stderr).not.toMatch(/\n\s+at |internal error/);
    for (const notice of scenario.notices ?? []) expect(result.stderr).toMatch(notice);
    if (scenario.requests !== undefined) expect(server.requests.length).toBe(scenario.requests);

    const after = await closedSession(sandbox);
    expect(after.problems).toEqual([]);
    const expected = [...(scenario.before ?? []).map((turn) => turn.prompt), 'faulty turn'].filter(
      (prompt) => !(scenario.archived ?? []).includes(prompt),
    );
    expect(userPrompts(after.messages)).toEqual(expected);
    scenario.session?.(after.messages);

    // The same session continues (what `mca -c` does, in-process).
    const resumed = await continueTurns(sandbox, [{ prompt: 'next turn', replies: [scriptedFinish('resumed')] }]);
    expect(resumed.warnings).toEqual([]);
    expect(resumed.ends.map((end) => end.answer)).toEqual(['resumed']);
    const continued = await closedSession(sandbox);
    expect(continued.problems).toEqual([]);
    expect(continued.sessionId).toBe(after.sessionId);
    expect(userPrompts(continued.messages)).toEqual([...expected, 'next turn']);
    const notice = scenario.code === 0 ? lastErrorLine(result.stderr) : '';
    return `exit ${scenario.code}: ${shown.split('\n').pop() ?? ''}${notice ? ` (stderr: ${notice})` : ''}`;
  } finally {
    await server.close();
  }
}

describe.concurrent('API faults and bad model output (real binary, fake API)', () => {
  beforeAll(async () => {
    refusedPort = await closedPort();
  });
  afterAll(() => log.write(SCENARIOS.map((scenario) => scenario.fault)));

  for (const scenario of SCENARIOS) {
    it(scenario.fault, { timeout: 60_000 }, async () => {
      const sandbox = await makeSandbox('mca-fault');
      let behaviour = `expected exit ${scenario.code}`;
      let intact = 0;
      try {
        await writeFile(join(sandbox.project, 'a.ts'), 'export const a = 1;\n');
        behaviour = await runScenario(sandbox, scenario);
        intact = 1;
      } finally {
        log.add({ group: 'API fault', fault: scenario.fault, behaviour, runs: 1, intact });
        await sandbox.cleanup();
      }
    });
  }
});

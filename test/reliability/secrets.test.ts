/**
 * The API key never leaves the process: not in session files or anything else under MCA_HOME, not on stderr
 * (errors, retries), not on stdout in any output format, even when the server echoes it or the model obtains it
 * through Bash and repeats it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { act, API_KEY, finish, listFiles, makeSandbox, runMca } from './harness.js';
import { ResultLog } from './results.js';

interface SecretCase {
  fault: string;
  script: FakeStep[];
  args: string[];
  code: number;
}

const BYPASS = ['--permission-mode', 'bypassPermissions'];

const CASES: SecretCase[] = [
  { fault: 'a normal run (text output)', script: [finish('hello')], args: [], code: 0 },
  {
    fault: 'a normal run (--output-format json)',
    script: [finish('hello')],
    args: ['--output-format', 'json'],
    code: 0,
  },
  {
    fault: 'a normal run (--output-format stream-json)',
    script: [finish('hello')],
    args: ['--output-format', 'stream-json', '--verbose'],
    code: 0,
  },
  { fault: 'the key in the user prompt', script: [finish('noted')], args: ['--prompt-has-key'], code: 0 },
  {
    fault: 'a 401 whose message echoes the key',
    script: [{ status: 401, message: `invalid x-api-key: ${API_KEY}` }],
    args: ['--output-format', 'json'],
    code: 1,
  },
  {
    fault: 'a 500 (retried) whose message echoes the key',
    script: [0, 1, 2].map(() => ({ status: 500, message: `upstream saw key ${API_KEY}` })),
    args: [],
    code: 1,
  },
  {
    fault: 'Bash prints the key (stream-json)',
    script: [act('Bash', { command: 'printenv ANTHROPIC_API_KEY' }), finish('printed')],
    args: [...BYPASS, '--output-format', 'stream-json', '--verbose'],
    code: 0,
  },
  {
    fault: 'the model repeats the key in its answer (json)',
    script: [{ text: `Thought: the key is ${API_KEY}\nAction: Finish[your key is ${API_KEY}]` }],
    args: ['--output-format', 'json'],
    code: 0,
  },
  {
    fault: 'the model repeats the key in its answer (text)',
    script: [{ text: `Thought: the key is ${API_KEY}\nAction: Finish[your key is ${API_KEY}]` }],
    args: [],
    code: 0,
  },
];

const log = new ResultLog('secrets');

describe.concurrent('the API key is never written', () => {
  afterAll(() => log.write(CASES.map((testCase) => testCase.fault)));

  for (const testCase of CASES) {
    it(testCase.fault, { timeout: 60_000 }, async () => {
      const sandbox = await makeSandbox('mca-secret');
      const server = await startFakeAnthropic(testCase.script);
      let behaviour = 'the check failed';
      let intact = 0;
      try {
        const keyInPrompt = testCase.args.includes('--prompt-has-key');
        const args = testCase.args.filter((arg) => arg !== '--prompt-has-key');
        const prompt = keyInPrompt ? `remember my key ${API_KEY}` : 'say hello';
        const result = await runMca(sandbox, [...args, '-p', prompt], { baseUrl: server.url });
        expect(result.code, result.stderr).toBe(testCase.code);
        const places: Record<string, string> = { stdout: result.stdout, stderr: result.stderr };
        for (const file of await listFiles(sandbox.home)) {
          places[`MCA_HOME/${file}`] = await readFile(join(sandbox.home, file), 'utf8');
        }
        const leaks = Object.entries(places)
          .filter(([, text]) => text.includes(API_KEY))
          .map(([place]) => place);
        expect(leaks).toEqual([]);
        expect(Object.keys(places).some((place) => place.endsWith('.jsonl'))).toBe(true);
        behaviour = `exit ${testCase.code}; key in none of stdout, stderr, ${Object.keys(places).length - 2} file(s)`;
        intact = 1;
      } finally {
        log.add({ group: 'secret', fault: testCase.fault, behaviour, runs: 1, intact });
        await server.close();
        await sandbox.cleanup();
      }
    });
  }
});

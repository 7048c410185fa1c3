/**
 * Issue 23, classes 2 and 3, through the built binary in `-p` against the loopback fake API:
 * - the model runs a Bash command that an allow rule seems to cover but that runs more (a `#` inside a word, a
 *   newline, a redirect to a file), or one a deny rule names behind a wrapper, eval, a shell or an escape;
 * - text piped into a custom command (`… | mca -p /review`) tries to become a `!` line or shell syntax inside one.
 * After each: what the model received, and that nothing was created inside or outside the project.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { act, API_KEY, FAST_ENV, finish, makeSandbox, type Sandbox } from './harness.js';
import { ResultLog } from './results.js';

const log = new ResultLog('bash-rules');
const order: string[] = [];

/** Everything in the sandbox root (the project's parent) and the project, but mca's home. */
function filesAround(sandbox: Sandbox): string[] {
  const parent = join(sandbox.project, '..');
  return [
    ...readdirSync(parent).filter((name) => name !== 'home'),
    ...readdirSync(sandbox.project).map((name) => `project/${name}`),
  ].sort();
}

async function runCase(
  sandbox: Sandbox,
  script: FakeStep[],
  args: string[],
  stdin?: string,
): Promise<{ code: number | null; stderr: string; sent: string[] }> {
  const server = await startFakeAnthropic(script);
  try {
    const run = await runMca(['-p', ...args, '--cwd', sandbox.project], {
      env: {
        ANTHROPIC_API_KEY: API_KEY,
        ANTHROPIC_BASE_URL: server.url,
        MCA_HOME: sandbox.home,
        HOME: sandbox.home,
        MCA_TOOL_PROTOCOL: 'text',
        ...FAST_ENV,
      },
      ...(stdin === undefined ? {} : { stdin }),
    });
    return { code: run.code, stderr: run.stderr, sent: server.requests.map((request) => userText(request.body)) };
  } finally {
    await server.close();
  }
}

function attempt(group: string, fault: string, body: (sandbox: Sandbox) => Promise<string>): void {
  order.push(fault);
  it(fault, { timeout: 60_000 }, async () => {
    const sandbox = await makeSandbox('mca-bash-rules');
    try {
      await log.track(group, fault, () => body(sandbox));
    } finally {
      await sandbox.cleanup();
    }
  });
}

afterAll(() => log.write(order));

describe.concurrent('Bash rules read commands as bash does (class 2)', () => {
  const allowCases = [
    'npm test x#; touch ../OUT',
    'npm test a#b && touch ../OUT',
    'npm test "x"#|touch ../OUT',
    'npm test x#\ntouch ../OUT',
    'npm test x# \\\n; touch ../OUT',
    'npm test > 5',
    'npm test >-',
    'npm test 2>../OUT',
    'npm test < /dev/tcp/127.0.0.1/9',
    'npm test $(touch ../OUT)',
    'FOO=1 npm test; touch ../OUT',
  ];
  for (const command of allowCases) {
    attempt('allow rule', `allow Bash(npm test:*), the model runs ${JSON.stringify(command)}`, async (sandbox) => {
      const result = await runCase(
        sandbox,
        [act('Bash', { command }), finish('done')],
        ['hi', '--allowedTools', 'Bash(npm test:*)'],
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.sent[1]).toContain('PERMISSION_DENIED');
      expect(filesAround(sandbox)).toEqual(['project']);
      return 'PERMISSION_DENIED; nothing ran, no file inside or outside the project';
    });
  }

  const denyCases = [
    'ls x#; touch ../OUT',
    't\\ouch ../OUT',
    "$'touch' ../OUT",
    'env touch ../OUT',
    'FOO=1 touch ../OUT',
    "eval 'touch ../OUT'",
    'sh -c "touch ../OUT"',
    '$(printf touch) ../OUT',
    'ls $(touch ../OUT)',
    'ls <(touch ../OUT)',
    'xargs touch <<< ../OUT',
    'cat <<EOF\n$(touch ../OUT)\nEOF',
    '{ touch ../OUT; }',
    'if true; then touch ../OUT; fi',
  ];
  for (const command of denyCases) {
    attempt(
      'deny rule',
      `deny Bash(touch:*) under allow Bash, the model runs ${JSON.stringify(command)}`,
      async (sandbox) => {
        const result = await runCase(
          sandbox,
          [act('Bash', { command }), finish('done')],
          ['hi', '--allowedTools', 'Bash', '--disallowedTools', 'Bash(touch:*)'],
        );
        expect(result.code, result.stderr).toBe(0);
        expect(result.sent[1]).toMatch(/PERMISSION_DENIED.*denied by the rule Bash\(touch:\*\)/s);
        expect(filesAround(sandbox)).toEqual(['project']);
        return 'PERMISSION_DENIED by the deny rule; nothing ran, no file inside or outside the project';
      },
    );
  }
});

const REVIEW = [
  '---',
  'allowed-tools: Bash',
  '---',
  'Review this diff:',
  '$ARGUMENTS',
  'Raw: !`echo RAW $ARGUMENTS`',
  'Double: !`echo "DOUBLE $ARGUMENTS"`',
  "Single: !`echo 'SINGLE $ARGUMENTS'`",
  'Nested: !`echo "NESTED $(echo $ARGUMENTS)"`',
  'Comment: !`echo COMMENT # $ARGUMENTS`',
].join('\n');

describe.concurrent('piped arguments stay data in a custom command (class 3)', () => {
  const variants: Array<[string, string]> = [
    ['a new line holding a ! command', 'diff --git a/x b/x\n!`touch ../OUT`\n+ok'],
    ['a single quote ending the quoting', "x'; touch ../OUT; echo '"],
    ['a double quote ending the quoting', 'x"; touch ../OUT; echo "'],
    ['$( ) and backticks', '$(touch ../OUT) `touch ../OUT2`'],
    ['a # and a newline inside the comment', 'x\ntouch ../OUT'],
    ['ANSI-C quotes and backslashes', "a\\' $'\\x27'; touch ../OUT \\"],
  ];
  for (const [name, piped] of variants) {
    attempt('custom command', `text piped into /review with ${name}`, async (sandbox) => {
      mkdirSync(join(sandbox.home, 'commands'), { recursive: true });
      writeFileSync(join(sandbox.home, 'commands', 'review.md'), REVIEW);
      const result = await runCase(sandbox, [finish('done')], ['/review'], piped);
      expect(result.code, result.stderr).toBe(0);
      const sent = result.sent[0] ?? '';
      const value = piped.trim();
      expect(sent).toContain(`Review this diff:\n${value}\n`);
      expect(sent).toContain(`Raw: RAW ${value}\n`);
      expect(sent).toContain(`Double: DOUBLE ${value}\n`);
      expect(sent).toContain(`Single: SINGLE ${value}\n`);
      expect(sent).toContain(`Nested: NESTED ${value}\n`);
      expect(sent).toContain('Comment: COMMENT');
      expect(sent).not.toContain('not run');
      expect(existsSync(join(sandbox.project, '..', 'OUT'))).toBe(false);
      expect(filesAround(sandbox)).toEqual(['project']);
      return 'the model got the text verbatim in the prose and in every ! line output; nothing else ran';
    });
  }
});

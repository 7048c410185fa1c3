/**
 * Differential test of the permission rules' view of a Bash command against bash itself. fast-check writes
 * commands from a grammar of the constructs that trip shell parsers (comments, every quoting form, escapes, line
 * continuations, substitutions, here-documents, subshells, groups, keywords, operators, redirects with fd numbers,
 * assignments, globs and braces, eval); each runs under the real `bash -c` in a sandbox whose PATH holds only
 * stubs that log their argv (bash-sandbox.ts). Then:
 * - allow: when the rules allow the command, every command bash executed is covered by an allow rule, and no file
 *   was written or created;
 * - deny: for every command bash executed, a deny rule naming it denies the whole line (even under a rule that
 *   allows every Bash command).
 * Runs: MCA_BASH_FUZZ_RUNS (300 in `npm test`, 5,000 in `npm run test:reliability`).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permissions/policy.js';
import { parseRule, type RuleBehavior } from '../../src/permissions/rule.js';
import { ResultLog } from '../reliability/results.js';
import { BashSandbox } from './bash-sandbox.js';

const RUNS = Number(process.env.MCA_BASH_FUZZ_RUNS ?? 300);

const ALLOW_RULES = ['Bash(npm test:*)', 'Bash(git status)', 'Bash(cat:*)', 'Bash(ls *)'];

function policyOf(rules: Array<[RuleBehavior, string]>): PermissionPolicy {
  return new PermissionPolicy(
    rules.map(([behavior, text]) => {
      const parsed = parseRule(text, behavior, 'fuzz');
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    }),
    { projectRoot: '/nonexistent', home: '/nonexistent' },
  );
}

const allowPolicy = policyOf(ALLOW_RULES.map((rule) => ['allow', rule]));

/** Words bash might split, join or take for a comment. */
const plainWord = fc.constantFrom(
  'test',
  'status',
  'x',
  'a#b',
  'x#',
  '#c',
  '#',
  '-rf',
  'out',
  '../OUT',
  '--',
  '5',
  'a=b',
  'in.txt',
  'a;b',
  'y',
);
const quotedAtom = fc.oneof(
  { weight: 4, arbitrary: plainWord },
  { weight: 1, arbitrary: plainWord.map((word) => `'${word}'`) },
  { weight: 1, arbitrary: plainWord.map((word) => `"${word}"`) },
  { weight: 1, arbitrary: plainWord.map((word) => `\\${word}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "$'\\x41'",
      "$'a\\'b'",
      "$'#'",
      "$'\\n'",
      '*',
      '~',
      '{a,b}',
      '\\#',
      '\\\n',
      '\\ ',
      '"a b"',
      "'#'",
      '"\\$X"',
      '\\;',
      '"\\""',
      "$'\\101'",
      '\\\\',
      "$'\\u0041'",
      '"#"',
      '\\\\#',
      'a\\\nb',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('$"x"', '$X', '${X}', '"$X"', '$((1+2))', '$#', '${#X}') },
);
/** Characters that end words, start comments or quote; alone they make broken and edge-case syntax. */
const junk = fc
  .array(fc.constantFrom('#', ';', '&', '|', '<', '>', '(', ')', '{', '}', "'", '"', '$', '`', '\n', '\\', ' ', 'x'), {
    minLength: 1,
    maxLength: 3,
  })
  .map((chars) => chars.join(''));

const names = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('npm test', 'git status', 'cat', 'ls') },
  { weight: 3, arbitrary: fc.constantFrom('touch', 'rm', 'curl') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'n\\pm test',
      '"npm" test',
      "np''m test",
      "$'npm' test",
      't\\\nouch',
      'r"m"',
      'FOO=1 npm test',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('eval', 'env', 'xargs', 'sh -c', 'command', 'exec', 'builtin', 'time', '!') },
);
const redirect = fc.oneof(
  fc.constantFrom('>&2', '2>&1', '>&-', '2>/dev/null', '<in.txt', '<<<x', '1>&2-', '<&0', '>/dev/null', '&>/dev/null'),
  fc.constantFrom('>out', '> 5', '>-', '&>out', '>>out', '<>out', '>|out', '2> out', '5>out', '>&out', '> ../OUT'),
);

const { list } = fc.letrec<{ list: string; simple: string; command: string; word: string }>((tie) => ({
  word: fc.oneof(
    { weight: 16, arbitrary: fc.array(quotedAtom, { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join('')) },
    { weight: 1, arbitrary: tie('list').map((inner) => `$(${inner})`) },
    { weight: 1, arbitrary: tie('simple').map((inner) => `\`${inner}\``) },
    { weight: 1, arbitrary: tie('simple').map((inner) => `<(${inner})`) },
    { weight: 2, arbitrary: junk },
  ),
  simple: fc
    .tuple(
      names,
      fc.array(fc.oneof({ weight: 6, arbitrary: tie('word') }, { weight: 1, arbitrary: redirect }), { maxLength: 4 }),
    )
    .map(([name, rest]) => [name, ...rest].join(' ')),
  command: fc.oneof(
    { weight: 12, arbitrary: tie('simple') },
    { weight: 1, arbitrary: tie('list').map((inner) => `( ${inner} )`) },
    { weight: 1, arbitrary: tie('list').map((inner) => `{ ${inner}; }`) },
    { weight: 1, arbitrary: fc.tuple(tie('simple'), tie('list')).map(([a, b]) => `if ${a}; then ${b}; fi`) },
    { weight: 1, arbitrary: tie('list').map((inner) => `for i in a b; do ${inner}; done`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('EOF', "'EOF'", '"EOF"', '-EOF'), tie('simple'))
        .map(
          ([delimiter, inner]) =>
            `cat <<${delimiter}\n$(${inner}) \`${inner}\` #\n${delimiter.replace(/['"-]/g, '')}\n`,
        ),
    },
  ),
  list: fc
    .tuple(
      tie('command'),
      fc.array(
        fc.tuple(
          fc.constantFrom(';', '&&', '||', '|', '|&', '&', '\n', ' ; ', ' #c\n', ' # x; ', '\\\n'),
          tie('command'),
        ),
        { maxLength: 3 },
      ),
    )
    .map(([first, rest]) => [first, ...rest.flat()].join(' ')),
}));

/**
 * Commands that look covered up to a `#` inside a word (`npm test x#; touch y`): bash takes a `#` for a comment
 * only at the start of a word, a parser that ends the command there hides what follows from every rule.
 */
const hashTail = fc
  .tuple(
    fc.constantFrom('npm test', 'cat', 'ls', 'git status'),
    fc.constantFrom('x#', 'a#b', '"x"#', "x'#'", '\\##', 'x#\\', '#', '#x', '$X#', '5#', "$'x'#"),
    fc.constantFrom(';', '&&', '|', '\n', '&', '||', ' #;', ';#'),
    fc.constantFrom('touch ../OUT', 'rm -rf x', 'curl x', 'cat >out', 'npm test'),
  )
  .map((pieces) => pieces.join(' '));

const commands = fc.oneof({ weight: 4, arbitrary: list }, { weight: 1, arbitrary: hashTail });

const sandbox = new BashSandbox();
const tally = { commands: 0, allowed: 0, executed: 0, denyChecks: 0 };
const log = new ResultLog('bash-fuzz');
afterAll(() => {
  sandbox.dispose();
  process.stdout.write(`bash differential: ${JSON.stringify(tally)}\n`);
  log.write();
});

/** The oracle: what ALLOW_RULES mean for an argv bash executed, written out independently of the engine. */
function covered(argv: string[]): boolean {
  const [name, first] = argv;
  if (name === 'npm' && first === 'test') return true;
  if (name === 'git' && first === 'status' && argv.length === 2) return true;
  if (name === 'cat') return true;
  return name === 'ls' && argv.length >= 2;
}

describe('the Bash rule engine agrees with bash', () => {
  it(`allows only what its rules cover and sees every command for deny rules (${RUNS} generated commands)`, async () => {
    const seed = Number(process.env.MCA_BASH_FUZZ_SEED ?? Date.now() % 2 ** 31);
    log.fact('seed', seed);
    const fault = 'generated commands run under bash -c, compared with the rule engine';
    await log.track(
      'property',
      fault,
      async () => {
        await fc.assert(
          fc.asyncProperty(commands, async (command) => {
            const run = sandbox.run(command);
            const decision = await allowPolicy.evaluate('Bash', { command });
            tally.commands += 1;
            tally.executed += run.executed.length;
            if (decision.behavior === 'allow') {
              tally.allowed += 1;
              for (const argv of run.executed) {
                expect(covered(argv), `allowed, but bash ran ${JSON.stringify(argv)}`).toBe(true);
              }
              expect([...run.files.keys()].sort(), 'allowed, but it changed files').toEqual(['in.txt']);
              expect(run.files.get('in.txt')).toBe('input\n');
            }
            for (const argv of run.executed) {
              const name = argv[0] ?? '';
              tally.denyChecks += 1;
              const denied = await policyOf([
                ['allow', 'Bash'],
                ['deny', `Bash(${name}:*)`],
              ]).evaluate('Bash', { command });
              expect(denied.behavior, `a deny rule for ${name} did not see ${JSON.stringify(argv)}`).toBe('deny');
              const second = argv[1];
              if (second !== undefined && /^[\w.-]+$/.test(second)) {
                const exact = await policyOf([['deny', `Bash(${name} ${second}:*)`]]).evaluate('Bash', { command });
                expect(exact.behavior, `a deny rule for ${name} ${second} did not see ${JSON.stringify(argv)}`).toBe(
                  'deny',
                );
              }
            }
          }),
          { numRuns: RUNS, seed },
        );
        return (
          `${tally.commands} commands, ${tally.allowed} allowed by the rules, ${tally.executed} commands bash ran; ` +
          'every allowed one covered, no file written, every command bash ran met by a deny rule naming it'
        );
      },
      RUNS,
    );
  }, 600_000);
});

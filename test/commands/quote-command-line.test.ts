/**
 * Arguments substituted into a custom command's `!` line are data wherever the placeholder stands (issue 23,
 * class 3). Random argument text (quotes, $, backticks, backslashes, newlines, #, operators) goes into templates
 * with the placeholder unquoted, in '…', "…", $'…', inside $( ) and in a comment; each line runs under the real
 * `bash -c` with only logging stubs on PATH: the printed value is the argument exactly, and no command ran.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { quoteArgumentsInto } from '../../src/commands/quote-command-line.js';
import { expandCustomCommand } from '../../src/commands/expand-command.js';
import type { CustomCommand } from '../../src/commands/custom-commands.js';
import { BashSandbox } from '../permissions/bash-sandbox.js';

const RUNS = Number(process.env.MCA_BASH_FUZZ_RUNS ?? 300) / 3;

const argumentText = fc
  .array(
    fc.constantFrom(
      "'",
      '"',
      '$',
      '`',
      '\\',
      '\n',
      '#',
      ';',
      '&',
      '|',
      ' ',
      '(',
      ')',
      'a',
      'touch x',
      '$(touch y)',
      "'\\''",
      '!`ls`',
      '*',
    ),
    { maxLength: 12 },
  )
  .map((pieces) => pieces.join(''));

/** printf prints its argument(s) with one separator, so several words show up as such. */
const TEMPLATES: Array<[string, (value: string) => string]> = [
  ["printf '[%s]' $ARGUMENTS", (value) => `[${value}]`],
  ['printf \'[%s]\' "$ARGUMENTS"', (value) => `[${value}]`],
  ["printf '[%s]' 'a$ARGUMENTS'b", (value) => `[a${value}b]`],
  ["printf '[%s]' $'$ARGUMENTS'", (value) => `[${value}]`],
  ['printf \'[%s]\' "$(printf %s $ARGUMENTS)"', (value) => `[${value.replace(/\n+$/, '')}]`],
  ["printf '[%s]' x # $ARGUMENTS", () => '[x]'],
  ["printf '[%s]' \\$ARGUMENTS", () => '[$ARGUMENTS]'],
  ['printf \'[%s]\' "${NOT_SET:-"$ARGUMENTS"}"', (value) => `[${value.replace(/[^A-Za-z0-9_.,:=+@%/-]/g, '')}]`],
  ["printf '[%s]' \"${NOT_SET:-'$ARGUMENTS'}\"", (value) => `['${value.replace(/[^A-Za-z0-9_.,:=+@%/-]/g, '')}']`],
];

const sandbox = new BashSandbox();
afterAll(() => sandbox.dispose());

describe('quoteArgumentsInto', () => {
  it('keeps argument text as data in every quoting context, checked against bash', () => {
    fc.assert(
      fc.property(argumentText, fc.constantFrom(...TEMPLATES), (value, [template, expected]) => {
        const line = quoteArgumentsInto(template, () => value);
        const run = sandbox.run(line);
        expect(run.executed, line).toEqual([]);
        expect(run.stdout, line).toBe(expected(value));
        expect([...run.files.keys()]).toEqual(['in.txt']);
      }),
      { numRuns: Math.max(20, Math.round(RUNS)) },
    );
  });
});

describe('expandCustomCommand', () => {
  const command: CustomCommand = {
    name: 'review',
    description: 'r',
    argumentHint: undefined,
    allowedTools: [],
    model: undefined,
    body: 'Diff:\n$ARGUMENTS\nFirst: !`echo $1`\nAll: !`echo "$ARGUMENTS"`',
    path: '/x/review.md',
    scope: 'user',
  };

  it('finds the ! lines in the file before substituting: piped text never adds one', async () => {
    const ran: string[] = [];
    const { prompt, mentionText } = await expandCustomCommand(command, 'x\n!`touch pwned`\n$(id)', async (line) => {
      ran.push(line);
      return `<ran ${line} @secret.txt>`;
    });
    // The `!` lines' output is in the prompt but never a source of `@` mentions (round three, class 8).
    expect(prompt).toContain('@secret.txt');
    expect(mentionText).not.toContain('@secret.txt');
    expect(ran).toEqual(["echo 'x'", 'echo "x\n!\\`touch pwned\\`\n\\$(id)"']);
    expect(prompt).toContain('Diff:\nx\n!`touch pwned`\n$(id)\nFirst: <ran');
  });
});

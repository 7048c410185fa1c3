/**
 * A command made of subcommands (`mca mcp list|get|add|…`) on the grammar of arg-grammar.ts, with the help, the
 * `help [command]` subcommand and the error lines mca printed when commander read it (pinned by
 * test/cli/argv-reference.test.ts): the words before the first flag name the subcommand; the rest is read against
 * its options; its arguments are counted (`missing required argument 'name'`, `too many arguments for 'get'`).
 */
import { defineOption, parseArgv, suggestSimilar, type Option, type OptionSpec } from './arg-grammar.js';
import { CliError, EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { formatHelp, helpWidth } from './help-text.js';

export interface SubcommandSpec {
  name: string;
  /** As help shows them: `<name>` required, `[args...]` optional and variadic. */
  arguments: readonly string[];
  description: string;
  options?: readonly OptionSpec[];
  /** Runs with the argument values (the variadic one as an array) and the options read. */
  action: (args: ReadonlyArray<string | string[] | undefined>, values: Record<string, unknown>) => void;
}

export interface CommandGroup {
  /** `mca mcp` */
  name: string;
  description: string;
  subcommands: readonly SubcommandSpec[];
  /** The hint after an error line: ` (see mca mcp --help)`. */
  seeHelp: string;
}

const HELP_OPTION = defineOption({ flags: '-h, --help', description: 'display help for command' });
const HELP_COMMAND = { name: 'help', term: 'help [command]', description: 'display help for command' };
const isHelp = (arg: string): boolean => arg === '-h' || arg === '--help';
const looksLikeFlag = (arg: string): boolean => arg.length > 1 && arg.startsWith('-');

function optionsOf(sub: SubcommandSpec): Option[] {
  return (sub.options ?? []).map(defineOption);
}

function term(sub: SubcommandSpec): string {
  return [sub.name, ...((sub.options ?? []).length > 0 ? ['[options]'] : []), ...sub.arguments].join(' ');
}

function groupHelp(group: CommandGroup): string {
  return formatHelp({
    usage: `${group.name} [options] [command]`,
    description: group.description,
    arguments: [],
    options: [HELP_OPTION],
    commands: [
      ...group.subcommands.map((sub) => [term(sub), sub.description] as const),
      [HELP_COMMAND.term, HELP_COMMAND.description],
    ],
    width: helpWidth(),
  });
}

function subcommandHelp(group: CommandGroup, sub: SubcommandSpec): string {
  return formatHelp({
    usage: [`${group.name} ${sub.name} [options]`, ...sub.arguments].join(' '),
    description: sub.description,
    arguments: [],
    options: [...optionsOf(sub), HELP_OPTION],
    width: helpWidth(),
  });
}

/** Reads `args`, runs the subcommand's action; returns EXIT_OK once help was printed or nothing was asked. */
export function runCommandGroup(group: CommandGroup, args: readonly string[]): number | undefined {
  // The group has no options of its own: the words before the first flag (or all, after `--`) are operands.
  const operands: string[] = [];
  const unknown: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      (unknown.length > 0 ? unknown : operands).push(...(unknown.length > 0 ? args.slice(i) : args.slice(i + 1)));
      break;
    }
    (unknown.length > 0 || looksLikeFlag(arg) ? unknown : operands).push(arg);
  }
  const first = operands[0];
  const sub = group.subcommands.find((candidate) => candidate.name === first);
  if (sub) return runSubcommand(group, sub, operands.slice(1), unknown);
  if (first === HELP_COMMAND.name) {
    const named = group.subcommands.find((candidate) => candidate.name === operands[1]);
    if (operands[1] === undefined) process.stdout.write(groupHelp(group));
    else if (named) process.stdout.write(subcommandHelp(group, named));
    return EXIT_OK;
  }
  // Nothing asked: commander showed the help on stderr, which mca keeps quiet.
  if (operands.length === 0 && unknown.length === 0) return EXIT_OK;
  if (unknown.some(isHelp)) {
    process.stdout.write(groupHelp(group));
    return EXIT_OK;
  }
  if (first !== undefined) {
    const names = [...group.subcommands.map((candidate) => candidate.name), HELP_COMMAND.name];
    throw usage(group, `unknown command '${first}'${suggestSimilar(first, names)}`);
  }
  throw usage(group, `unknown option '${unknown[0]}'${suggestSimilar(unknown[0] as string, ['--help'])}`);
}

function usage(group: CommandGroup, message: string): CliError {
  return new CliError(`${message}${group.seeHelp}`, EXIT_USAGE);
}

function runSubcommand(group: CommandGroup, sub: SubcommandSpec, words: string[], rest: string[]): number | undefined {
  const options = optionsOf(sub);
  let parsed;
  try {
    parsed = parseArgv(options, rest);
  } catch (error) {
    if (error instanceof CliError) throw usage(group, error.message);
    throw error;
  }
  if (parsed === 'stopped') return EXIT_OK;
  if (parsed.unknown.some(isHelp)) {
    process.stdout.write(subcommandHelp(group, sub));
    return EXIT_OK;
  }
  const flag = parsed.unknown[0];
  if (flag !== undefined) {
    const longs = [...options, HELP_OPTION].flatMap((option) => (option.long ? [option.long] : []));
    throw usage(group, `unknown option '${flag}'${suggestSimilar(flag, longs)}`);
  }
  const given = [...words, ...parsed.operands];
  const values: Array<string | string[] | undefined> = [];
  for (const [index, argument] of sub.arguments.entries()) {
    const name = argument.replace(/^[<[]|(\.\.\.)?[>\]]$/g, '');
    if (argument.startsWith('<') && given[index] === undefined) {
      throw usage(group, `missing required argument '${name}'`);
    }
    values.push(argument.endsWith('...]') || argument.endsWith('...>') ? given.slice(index) : given[index]);
  }
  const variadic = sub.arguments.at(-1)?.includes('...') === true;
  if (!variadic && given.length > sub.arguments.length) {
    const expected = sub.arguments.length;
    throw usage(
      group,
      `too many arguments for '${sub.name}'. Expected ${expected} argument${expected === 1 ? '' : 's'} but got ${given.length}.`,
    );
  }
  sub.action(values, parsed.values);
  return undefined;
}

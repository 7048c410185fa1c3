/**
 * The command line's grammar, hand-written so the `-p` path loads no argument library (issue 42: commander was
 * 55.6 kB and ~7 ms of the one-shot's start-up). It keeps the grammar mca's users and scripts already rely on, pinned
 * by test/cli/argv-reference.test.ts: `--flag value` and `--flag=value`, short groups (`-pc`) and a short flag's
 * attached value (`-rID`), `<value>` options that take the next word whatever it is, `[value]` options that take it
 * unless it looks like a flag, `<values...>` options that take words until the next flag, `--no-x` negations, and
 * `--` ending the flags. The first unknown flag is reported after the whole line is read (help wins over it); a bad
 * or missing value is reported where it stands.
 *
 * node:util's parseArgs was measured against this grammar and does not fit it: it has no optional or variadic
 * values, and in strict mode it refuses values that begin with a dash, which mca accepts (`--add-dir --x`).
 */
import { CliError, EXIT_USAGE } from './exit-codes.js';

/** A bad value, said as the option's reason (`must be a UUID`); the parser adds which option and value. */
export class InvalidArgumentError extends CliError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
    this.name = 'InvalidArgumentError';
  }
}

export interface OptionSpec {
  /** As shown in help: `-p, --print`, `--model <name>`, `-r, --resume [id]`, `--add-dir <dirs...>`, `--a, --bb`. */
  flags: string;
  /** Absent: hidden from help and from "did you mean" suggestions. */
  description?: string;
  choices?: readonly string[];
  /** The value before the line is read; shown in help as `(default: …)` for options that take a value. */
  default?: unknown;
  /** Turns each given value into the stored one (`previous`: the value so far); throws InvalidArgumentError. */
  parse?: (value: string, previous: unknown) => unknown;
}

/** An option with its flags split the way help shows them. */
export interface Option extends OptionSpec {
  short: string | undefined;
  long: string | undefined;
  /** The key its value is stored under: `--allowed-tools` → allowedTools, `--no-sandbox` → sandbox. */
  key: string;
  takes: 'none' | 'required' | 'optional';
  variadic: boolean;
  negate: boolean;
}

export function defineOption(spec: OptionSpec): Option {
  const parts = spec.flags.split(/[ |,]+/);
  let short: string | undefined;
  let long: string | undefined;
  if (/^-[^-]$/.test(parts[0] ?? '')) short = parts.shift();
  if (/^--[^-]/.test(parts[0] ?? '')) long = parts.shift();
  // Two long flags (`--allowedTools, --allowed-tools`): the first is the short-hand, the second names the key.
  if (short === undefined && /^--[^-]/.test(parts[0] ?? '')) {
    short = long;
    long = parts.shift();
  }
  const name = (long ?? short ?? '').replace(/^--?/, '');
  const negate = name.startsWith('no-');
  const key = (negate ? name.slice(3) : name).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const takes = spec.flags.includes('<') ? 'required' : spec.flags.includes('[') ? 'optional' : 'none';
  return { ...spec, short, long, key, takes, variadic: /\.\.\.[>\]]$/.test(spec.flags), negate };
}

export interface Parsed {
  values: Record<string, unknown>;
  /** The words that are not flags or their values, in order (after `--` too). */
  operands: string[];
  /** The first unknown flag and every word after it (flags the line still read are not in it). */
  unknown: string[];
}

/** Called when an option is met; return true to stop reading (`--version`). */
export type OptionListener = (option: Option) => boolean;

const looksLikeFlag = (arg: string): boolean => arg.length > 1 && arg.startsWith('-');
const negativeNumber = (arg: string): boolean => /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/.test(arg);

/** The initial values: each default, and `true` for a `--no-x` whose `--x` is not defined. */
function initialValues(options: readonly Option[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const option of options) {
    if (option.negate) {
      const positive = `--${option.key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
      if (!options.some((other) => other.long === positive)) values[option.key] = option.default ?? true;
    } else if (option.default !== undefined) {
      values[option.key] = option.default;
    }
  }
  return values;
}

function store(values: Record<string, unknown>, option: Option, given: string | null): void {
  const previous = values[option.key];
  let value: unknown = given;
  if (given !== null && option.choices !== undefined && !option.choices.includes(given)) {
    throw invalid(option, given, `Allowed choices are ${option.choices.join(', ')}.`);
  }
  if (given !== null && option.parse) {
    try {
      value = option.parse(given, previous);
    } catch (error) {
      if (error instanceof InvalidArgumentError) throw invalid(option, given, error.message);
      throw error;
    }
  } else if (given !== null && option.variadic) {
    value = previous === option.default || !Array.isArray(previous) ? [given] : [...(previous as unknown[]), given];
  }
  if (value === null) value = option.negate ? false : true;
  values[option.key] = value;
}

function invalid(option: Option, value: string, reason: string): CliError {
  return new CliError(`option '${option.flags}' argument '${value}' is invalid. ${reason}`, EXIT_USAGE);
}

/** Reads `args` against `options`; throws CliError for a missing or bad value (unknown flags are returned). */
export function parseArgv(
  options: readonly Option[],
  args: readonly string[],
  listener: OptionListener = () => false,
): Parsed | 'stopped' {
  const values = initialValues(options);
  const operands: string[] = [];
  const unknown: string[] = [];
  let dest = operands;
  const find = (arg: string): Option | undefined =>
    options.find((option) => option.short === arg || option.long === arg);
  let variadic: Option | undefined;
  let group: string | undefined;
  let i = 0;
  while (i < args.length || group !== undefined) {
    const arg = group ?? (args[i++] as string);
    group = undefined;
    if (arg === '--') {
      if (dest === unknown) dest.push(arg);
      dest.push(...args.slice(i));
      break;
    }
    if (variadic && (!looksLikeFlag(arg) || negativeNumber(arg))) {
      store(values, variadic, arg);
      continue;
    }
    variadic = undefined;
    if (looksLikeFlag(arg)) {
      const option = find(arg);
      if (option) {
        if (option.takes === 'required') {
          const value = args[i++];
          if (value === undefined) throw new CliError(`option '${option.flags}' argument missing`, EXIT_USAGE);
          store(values, option, value);
        } else if (option.takes === 'optional') {
          const next = args[i];
          const value = next !== undefined && (!looksLikeFlag(next) || negativeNumber(next)) ? next : null;
          if (value !== null) i++;
          store(values, option, value);
        } else {
          store(values, option, null);
        }
        if (listener(option)) return 'stopped';
        variadic = option.variadic ? option : undefined;
        continue;
      }
    }
    // A short group: the first flag is known; a value-taking one takes the rest (`-rID`), a switch leaves it.
    if (arg.length > 2 && arg[0] === '-' && arg[1] !== '-') {
      const option = find(`-${arg[1]}`);
      if (option) {
        if (option.takes !== 'none') store(values, option, arg.slice(2));
        else {
          store(values, option, null);
          group = `-${arg.slice(2)}`;
        }
        if (listener(option)) return 'stopped';
        continue;
      }
    }
    if (/^--[^=]+=/.test(arg)) {
      const at = arg.indexOf('=');
      const option = find(arg.slice(0, at));
      if (option && option.takes !== 'none') {
        store(values, option, arg.slice(at + 1));
        if (listener(option)) return 'stopped';
        continue;
      }
    }
    if (dest === operands && looksLikeFlag(arg) && !negativeNumber(arg)) dest = unknown;
    dest.push(arg);
  }
  return { values, operands, unknown };
}

/**
 * `\n(Did you mean --model?)` for a mistyped long flag or subcommand name, or '' (at most three edits, only the
 * closest; a short flag gets none). The caller's error keeps only its first line on screen (printError).
 */
export function suggestSimilar(word: string, candidates: readonly string[]): string {
  if (word.startsWith('-') && !word.startsWith('--')) return '';
  const flags = word.startsWith('--');
  const bare = flags ? word.slice(2) : word;
  let best = 3;
  let similar: string[] = [];
  for (const candidate of new Set(candidates.map((name) => (flags ? name.slice(2) : name)))) {
    if (candidate.length <= 1) continue;
    const distance = editDistance(bare, candidate);
    const length = Math.max(bare.length, candidate.length);
    if ((length - distance) / length <= 0.4) continue;
    if (distance < best) {
      best = distance;
      similar = [candidate];
    } else if (distance === best) similar.push(candidate);
  }
  similar = similar.sort((a, b) => a.localeCompare(b)).map((candidate) => (flags ? `--${candidate}` : candidate));
  if (similar.length > 1) return `\n(Did you mean one of ${similar.join(', ')}?)`;
  return similar.length === 1 ? `\n(Did you mean ${similar[0]}?)` : '';
}

/** Damerau-Levenshtein (optimal string alignment); far apart lengths count as the longer length. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Math.max(a.length, b.length);
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d[i] = [i];
  for (let j = 0; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

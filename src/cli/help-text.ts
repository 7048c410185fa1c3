/**
 * `mca --help`: the usage line, the description, the argument and the visible options in two columns, as mca has
 * always printed them (test/cli/argv-reference.test.ts pins the text). Descriptions wrap at the terminal's width
 * (80 when stdout is not a terminal) when their column has at least 40 characters; otherwise they stay on one line.
 */
import type { Option } from './arg-grammar.js';

const MIN_WRAP = 40;

export interface HelpPage {
  usage: string;
  description: string;
  /** `[term, description]` of each argument. */
  arguments: ReadonlyArray<readonly [string, string]>;
  options: readonly Option[];
  /** `[term, description]` of each subcommand (`add [options] <name>`). */
  commands?: ReadonlyArray<readonly [string, string]>;
  width: number;
}

/** What help says of an option: its description, then its choices and default (for options that take a value). */
export function optionDescription(option: Option): string {
  const extra: string[] = [];
  if (option.choices) extra.push(`choices: ${option.choices.map((choice) => JSON.stringify(choice)).join(', ')}`);
  if (option.default !== undefined && option.takes !== 'none') extra.push(`default: ${JSON.stringify(option.default)}`);
  const description = option.description ?? '';
  if (extra.length === 0) return description;
  return description ? `${description} (${extra.join(', ')})` : `(${extra.join(', ')})`;
}

export function formatHelp(page: HelpPage): string {
  const visible = page.options.filter((option) => option.description !== undefined);
  const items: Array<readonly [string, string]> = visible.map((option) => [option.flags, optionDescription(option)]);
  const commands = page.commands ?? [];
  const termWidth = Math.max(0, ...[...page.arguments, ...items, ...commands].map(([term]) => term.length));
  const item = ([term, description]: readonly [string, string]): string =>
    formatItem(term, termWidth, description, page.width);
  const output = [`Usage: ${page.usage}`, ''];
  if (page.description) output.push(boxWrap(page.description, page.width), '');
  if (page.arguments.length > 0) output.push('Arguments:', ...page.arguments.map(item), '');
  if (items.length > 0) output.push('Options:', ...items.map(item), '');
  if (commands.length > 0) output.push('Commands:', ...commands.map(item), '');
  return output.join('\n');
}

function formatItem(term: string, termWidth: number, description: string, width: number): string {
  if (!description) return `  ${term}`;
  const remaining = width - termWidth - 4;
  const text =
    remaining < MIN_WRAP || /\n[^\S\r\n]/.test(description)
      ? description
      : boxWrap(description, remaining).replace(/\n/g, `\n${' '.repeat(termWidth + 2)}`);
  return `  ${term.padEnd(termWidth)}  ${text.replace(/\n/g, '\n  ')}`;
}

/** Wraps at whitespace to `width`, keeping the text's own line breaks; narrower than 40: unchanged. */
export function boxWrap(text: string, width: number): string {
  if (width < MIN_WRAP) return text;
  const lines: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      lines.push('');
      continue;
    }
    let current = [chunks[0] as string];
    let used = (chunks[0] as string).length;
    for (const chunk of chunks.slice(1)) {
      if (used + chunk.length <= width) {
        current.push(chunk);
        used += chunk.length;
        continue;
      }
      lines.push(current.join(''));
      const next = chunk.trimStart();
      current = [next];
      used = next.length;
    }
    lines.push(current.join(''));
  }
  return lines.join('\n');
}

/** The width help wraps at: the terminal's columns, or 80 when stdout is not a terminal. */
export function helpWidth(): number {
  return (process.stdout.isTTY ? process.stdout.columns : undefined) ?? 80;
}

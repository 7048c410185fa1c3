/**
 * Puts argument text into a custom command's `!` line as data, never as shell syntax. Each `$ARGUMENTS` / `$1`…`$9`
 * is replaced by its value quoted for the place it stands in the line as written: unquoted (also inside `$( )`) it
 * becomes one single-quoted word ('it'\''s'); inside '…' it closes and reopens the quote around an escaped `'`;
 * inside "…" `$`, `` ` ``, `"` and `\` are escaped; inside $'…' `\` and `'` are. In a comment it is left out: a
 * newline in the value would end the comment and start a command. A `\$ARGUMENTS` (escaped `$`) stays as written.
 * Inside or after a `${…}` (where quotes nest in ways this does not follow) a value keeps only letters, digits and
 * `._,:=+@%/-`, which mean nothing in any quoting context.
 */

type Context = 'plain' | 'substitution' | 'single' | 'double' | 'ansi' | 'comment';

const PLACEHOLDER = /\$(?:ARGUMENTS|[1-9])/y;
const WORD_START = new Set(['', ' ', '\t', ';', '&', '|', '(', ')']);

function quoted(value: string, context: Context): string {
  switch (context) {
    case 'plain':
    case 'substitution':
      return `'${value.replace(/'/g, `'\\''`)}'`;
    case 'single':
      return value.replace(/'/g, `'\\''`);
    case 'double':
      return value.replace(/[$`"\\]/g, '\\$&');
    case 'ansi':
      return value.replace(/[\\']/g, '\\$&');
    case 'comment':
      return '';
  }
}

/** `line` with every placeholder replaced by `valueOf(placeholder)`, quoted for where it stands. */
export function quoteArgumentsInto(line: string, valueOf: (placeholder: string) => string): string {
  const stack: Context[] = ['plain'];
  let out = '';
  let index = 0;
  let afterParameter = false;
  while (index < line.length) {
    const context = stack[stack.length - 1] ?? 'plain';
    PLACEHOLDER.lastIndex = index;
    const placeholder = PLACEHOLDER.exec(line);
    if (placeholder) {
      const value = valueOf(placeholder[0]);
      out += afterParameter ? value.replace(/[^A-Za-z0-9_.,:=+@%/-]/g, '') : quoted(value, context);
      index += placeholder[0].length;
      continue;
    }
    const c = line[index] ?? '';
    const unquoted = context === 'plain' || context === 'substitution';
    let take = 1;
    if (c === '\\' && context !== 'single' && context !== 'comment') {
      take = 2;
    } else if (context === 'single' && c === "'") {
      stack.pop();
    } else if (context === 'ansi' && c === "'") {
      stack.pop();
    } else if (context === 'double' && c === '"') {
      stack.pop();
    } else if ((unquoted || context === 'double') && line.startsWith('${', index)) {
      afterParameter = true;
    } else if ((unquoted || context === 'double') && line.startsWith('$(', index)) {
      stack.push('substitution');
      take = 2;
    } else if (context === 'substitution' && c === ')') {
      stack.pop();
    } else if (unquoted && line.startsWith("$'", index)) {
      stack.push('ansi');
      take = 2;
    } else if (unquoted && c === "'") {
      stack.push('single');
    } else if (unquoted && c === '"') {
      stack.push('double');
    } else if (unquoted && c === '#' && WORD_START.has(line[index - 1] ?? '')) {
      stack.push('comment');
    }
    out += line.slice(index, index + take);
    index += take;
  }
  return out;
}

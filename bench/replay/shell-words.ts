/**
 * A small shell reader for classifying recorded commands: enough quoting to find the words of simple
 * commands and where `|`, `&&`, `||` and `;` split them. It does not expand anything. A heredoc body is
 * kept out of the words (the classifier reads it from the raw command).
 */

export type Operator = '|' | '&&' | '||' | ';';

export interface SimpleCommand {
  words: string[];
  /** The operator that follows this command ('' for the last one). */
  next: Operator | '';
  /** Targets of `>` / `>>` redirections. */
  redirects: string[];
}

/** Removes heredoc bodies (`<<'EOF' … EOF`) so the rest can be split safely. */
export function stripHeredocs(command: string): { rest: string; bodies: string[] } {
  const bodies: string[] = [];
  const lines = command.split('\n');
  const kept: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    kept.push(line);
    const marker = /<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/.exec(line);
    if (marker === null) continue;
    const end = marker[2];
    const body: string[] = [];
    index += 1;
    while (index < lines.length && (lines[index] ?? '').trim() !== end) {
      body.push(lines[index] ?? '');
      index += 1;
    }
    bodies.push(body.join('\n'));
  }
  return { rest: kept.join('\n'), bodies };
}

/** Splits a command line (heredocs already stripped) into simple commands. */
export function splitCommands(line: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let words: string[] = [];
  let redirects: string[] = [];
  let word = '';
  let inWord = false;
  let redirectNext = false;
  const endWord = (): void => {
    if (!inWord) return;
    if (redirectNext) redirects.push(word);
    else words.push(word);
    redirectNext = false;
    word = '';
    inWord = false;
  };
  const endCommand = (next: Operator | ''): void => {
    endWord();
    if (words.length > 0 || next === '') commands.push({ words, next, redirects });
    words = [];
    redirects = [];
  };
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index] ?? '';
    const pair = line.slice(index, index + 2);
    if (char === "'") {
      const close = line.indexOf("'", index + 1);
      const stop = close === -1 ? line.length : close;
      word += line.slice(index + 1, stop);
      inWord = true;
      index = stop;
    } else if (char === '"') {
      let cursor = index + 1;
      while (cursor < line.length && line[cursor] !== '"') {
        if (line[cursor] === '\\' && cursor + 1 < line.length) cursor += 1;
        word += line[cursor];
        cursor += 1;
      }
      inWord = true;
      index = cursor;
    } else if (char === '\\' && index + 1 < line.length) {
      word += line[index + 1];
      inWord = true;
      index += 1;
    } else if (pair === '&&' || pair === '||') {
      endCommand(pair);
      index += 1;
    } else if (char === '|' || char === ';' || char === '\n') {
      endCommand(char === '|' ? '|' : ';');
    } else if (char === '>') {
      if (inWord && /^[0-9]$/.test(word)) {
        word = ''; // a file-descriptor prefix such as 2>
        inWord = false;
      }
      endWord();
      if (line[index + 1] === '>') index += 1;
      if (line[index + 1] === '&') index += 1;
      redirectNext = true;
    } else if (char === ' ' || char === '\t') {
      endWord();
    } else {
      word += char;
      inWord = true;
    }
  }
  endCommand('');
  return commands.filter((command) => command.words.length > 0 || command.redirects.length > 0);
}

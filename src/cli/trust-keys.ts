/**
 * The keys of the trust menu in one chunk of raw terminal input, in order. Keys typed fast arrive together in
 * one read ("2\r", "\u001b[B\r"), so a chunk is split into keys rather than taken as one.
 */
export type TrustKey = 'up' | 'down' | 'toggle' | 'yes' | 'no' | 'enter';

export function trustKeys(chunk: string): TrustKey[] {
  const keys: TrustKey[] = [];
  for (let at = 0; at < chunk.length;) {
    const rest = chunk.slice(at);
    // eslint-disable-next-line no-control-regex -- terminal input is control sequences
    const arrow = /^\u001b(?:\[|O)([AB])/.exec(rest);
    if (arrow) {
      keys.push(arrow[1] === 'A' ? 'up' : 'down');
      at += arrow[0].length;
      continue;
    }
    // eslint-disable-next-line no-control-regex -- terminal input is control sequences
    const other = /^\u001b\[[0-9;]*[~A-Za-z]/.exec(rest);
    if (other) {
      at += other[0].length; // a key the menu does not use (Page Up, a function key)
      continue;
    }
    const char = rest[0] ?? '';
    at += 1;
    if (char === '\r' || char === '\n') keys.push('enter');
    else if (char === '1' || char === 'y' || char === 'Y') keys.push('yes');
    // Esc alone, Ctrl-C, Ctrl-D: no (the menu's "exit"); j/k as arrows.
    else if (
      char === '2' ||
      char === 'n' ||
      char === 'N' ||
      char === '\u001b' ||
      char === '\u0003' ||
      char === '\u0004'
    )
      keys.push('no');
    else if (char === 'k') keys.push('up');
    else if (char === 'j') keys.push('down');
    else if (char === 'd' || char === 'D') keys.push('toggle');
  }
  return keys;
}

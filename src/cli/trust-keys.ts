/**
 * The keys of the start-up menus (trust, MCP server approval) in one chunk of raw terminal input, in order. Keys
 * typed fast arrive together in one read ("2\r", "\u001b[B\r"), so a chunk is split into keys rather than taken as
 * one. A digit picks that option at once; Esc, Ctrl-C and Ctrl-D cancel.
 */
export type MenuKey = 'up' | 'down' | 'toggle' | 'enter' | 'cancel' | { pick: number };

export function menuKeys(chunk: string): MenuKey[] {
  const keys: MenuKey[] = [];
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
    else if (/^[1-9]$/.test(char)) keys.push({ pick: Number(char) - 1 });
    else if (char === '\u001b' || char === '\u0003' || char === '\u0004') keys.push('cancel');
    else if (char === 'k') keys.push('up');
    else if (char === 'j') keys.push('down');
    else if (char === 'd' || char === 'D') keys.push('toggle');
  }
  return keys;
}

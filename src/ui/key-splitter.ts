/**
 * Splits raw terminal input (one stdin chunk may hold several keys) into key events for parseKey (keys.ts): a run
 * of plain characters is one event (typing, or a paste: parseKey tells them apart), each escape sequence is its
 * own. An escape sequence cut off at the end of a chunk waits for the next chunk; `flush` ends the wait (the caller
 * flushes once the input has gone quiet for a tick, so a lone Esc press is still a key).
 */

const ESC = '\x1b';

/** A CSI parameter (0x30–0x3f) or intermediate (0x20–0x2f) byte. */
function isCsiBody(code: number): boolean {
  return code >= 0x20 && code <= 0x3f;
}

/** A CSI or SS3 final byte. */
function isFinal(code: number): boolean {
  return code >= 0x40 && code <= 0x7e;
}

type Scan = { end: number } | 'pending' | 'invalid';

/** ESC [ … final (also the legacy ESC [ [ A function keys), from the `[` at `at`. */
function scanCsi(input: string, at: number): Scan {
  for (let index = at + 1; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (isCsiBody(code) || (code === 0x5b && index === at + 1)) continue;
    return isFinal(code) ? { end: index + 1 } : 'invalid';
  }
  return 'pending';
}

/** ESC O final, from the `O` at `at`. */
function scanSs3(input: string, at: number): Scan {
  if (at + 1 >= input.length) return 'pending';
  return isFinal(input.charCodeAt(at + 1)) ? { end: at + 2 } : 'invalid';
}

/** A control sequence whose introducer (`[` or `O`) is at `at`, or 'invalid' when there is none. */
function scanControl(input: string, at: number): Scan {
  if (at >= input.length) return 'pending';
  if (input[at] === '[') return scanCsi(input, at);
  if (input[at] === 'O') return scanSs3(input, at);
  return 'invalid';
}

/** Bracketed paste (mode 2004): the terminal wraps pasted text in these, however many reads it takes. */
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

/** The events of `input` and the unfinished escape sequence (or bracketed paste) at its end ('' when none). */
export function splitKeys(input: string): { events: string[]; pending: string } {
  const events: string[] = [];
  let index = 0;
  while (index < input.length) {
    const escape = input.indexOf(ESC, index);
    if (escape === -1) {
      events.push(input.slice(index));
      break;
    }
    if (escape > index) events.push(input.slice(index, escape));
    // A bracketed paste is one event, start and end markers included, even when it spans many reads.
    if (input.startsWith(PASTE_START, escape)) {
      const end = input.indexOf(PASTE_END, escape + PASTE_START.length);
      if (end === -1) return { events, pending: input.slice(escape) };
      events.push(input.slice(escape, end + PASTE_END.length));
      index = end + PASTE_END.length;
      continue;
    }
    // ESC ESC introduces a sequence with Alt (ESC ESC [ A), or is Alt+Esc itself.
    const doubled = input[escape + 1] === ESC;
    const introducer = escape + (doubled ? 2 : 1);
    const scan = scanControl(input, introducer);
    if (scan === 'pending') return { events, pending: input.slice(escape) };
    if (scan !== 'invalid') {
      events.push(input.slice(escape, scan.end));
      index = scan.end;
      continue;
    }
    // ESC and one character (Alt+key, Alt+Enter, Alt+Backspace), or ESC ESC.
    const next = doubled ? introducer : introducer + ((input.codePointAt(introducer) ?? 0) > 0xffff ? 2 : 1);
    events.push(input.slice(escape, next));
    index = next;
  }
  return { events, pending: '' };
}

export interface KeySplitter {
  /** The complete events of `chunk` (after what an earlier chunk left unfinished). */
  push(chunk: string): string[];
  hasPending(): boolean;
  /**
   * Whatever is unfinished, as one event (a lone ESC is the Esc key); undefined when nothing is, or when the
   * unfinished part is a bracketed paste whose end has not arrived yet (a paste is never cut by a quiet moment).
   */
  flush(): string | undefined;
}

export function createKeySplitter(): KeySplitter {
  let pending = '';
  return {
    push(chunk) {
      const split = splitKeys(pending + chunk);
      pending = split.pending;
      return split.events;
    },
    hasPending: () => pending !== '',
    flush() {
      if (pending.startsWith(PASTE_START)) return undefined;
      const rest = pending;
      pending = '';
      return rest === '' ? undefined : rest;
    },
  };
}

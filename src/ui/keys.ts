/**
 * Turns one raw terminal input event (as key-splitter.ts splits stdin) into editor key events.
 * We parse raw sequences ourselves because Ink's `useInput` reports both Backspace (\x7f) and Delete
 * (ESC[3~) as `delete`, and cannot tell a paste from typing.
 */

export type KeyEvent =
  | {
      kind: 'text';
      text: string;
      /** several characters at once: a paste (or a fast typist) */
      paste: boolean;
      /** The terminal marked it as one paste (bracketed paste): its end is known, nothing continues it. */
      bracketed?: boolean;
    }
  | { kind: 'submit' }
  | { kind: 'newline' }
  | { kind: 'backspace' }
  | { kind: 'delete' }
  | { kind: 'left' }
  | { kind: 'right' }
  | { kind: 'up' }
  | { kind: 'down' }
  | { kind: 'home' }
  | { kind: 'end' }
  | { kind: 'pageup' }
  | { kind: 'pagedown' }
  | { kind: 'tab' }
  /** Shift+Tab (ESC [ Z): cycles the permission mode. */
  | { kind: 'backtab' }
  | { kind: 'escape' }
  /** Ctrl + a letter, lower case: 'c', 'd', 'a', 'e', 'u', 'k', 'w', 'l', 'o'. */
  | { kind: 'ctrl'; key: string }
  | { kind: 'ignored' };

const SEQUENCES: Record<string, KeyEvent> = {
  '\r': { kind: 'submit' },
  '\x1b\r': { kind: 'newline' },
  '\n': { kind: 'newline' },
  '\x1b\n': { kind: 'newline' },
  '\t': { kind: 'tab' },
  '\x1b[Z': { kind: 'backtab' },
  '\x7f': { kind: 'backspace' },
  '\b': { kind: 'backspace' },
  '\x1b\x7f': { kind: 'backspace' },
  '\x1b[3~': { kind: 'delete' },
  '\x1b': { kind: 'escape' },
};

const CSI_FINAL: Record<string, KeyEvent['kind']> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
};

const CSI_TILDE: Record<string, KeyEvent['kind']> = {
  '1': 'home',
  '7': 'home',
  '4': 'end',
  '8': 'end',
  '3': 'delete',
  '5': 'pageup',
  '6': 'pagedown',
};

function parseEscape(raw: string): KeyEvent {
  // ESC [ A, ESC O A, ESC [ 1 ; 5 A (modified arrows count as plain arrows)
  // eslint-disable-next-line no-control-regex
  const letter = /^\x1b+(?:\[|O)(?:1;\d+)?([ABCDHF])$/.exec(raw);
  if (letter?.[1]) return { kind: CSI_FINAL[letter[1]] } as KeyEvent;
  // eslint-disable-next-line no-control-regex
  const tilde = /^\x1b+\[(\d+)(?:;\d+)?~$/.exec(raw);
  if (tilde?.[1] && CSI_TILDE[tilde[1]]) return { kind: CSI_TILDE[tilde[1]] } as KeyEvent;
  return { kind: 'ignored' };
}

/** Removes control characters a paste should not carry; keeps newlines and tabs. */
function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** A control character typed as a key (Ctrl+letter, Backspace); tab, newline, return and ESC are handled apart. */
// eslint-disable-next-line no-control-regex
const CONTROL_KEY = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/;

export function parseKey(raw: string): KeyEvent[] {
  const known = SEQUENCES[raw];
  if (known) return [known];
  // A bracketed paste (key-splitter.ts keeps it whole): its text, however many lines, is one paste.
  if (raw.startsWith(PASTE_START) && raw.endsWith(PASTE_END)) {
    const text = cleanText(raw.slice(PASTE_START.length, -PASTE_END.length));
    return text ? [{ kind: 'text', text, paste: true, bracketed: true }] : [{ kind: 'ignored' }];
  }
  // Keys typed fast reach us in one read: "abc" then Ctrl+U is text and a key, not text with a stray byte.
  if (raw.length > 1 && !raw.startsWith('\x1b') && CONTROL_KEY.test(raw)) {
    const pieces = raw.split(new RegExp(`(${CONTROL_KEY.source})`)).filter((piece) => piece !== '');
    return pieces.flatMap((piece) => parseKey(piece));
  }
  // Two Esc presses that reach us in one read (tmux, ssh, a loaded machine) are two presses: Esc Esc opens
  // /rewind. Alt+Esc, the other reading, has no binding.
  if (raw === '\x1b\x1b') return [{ kind: 'escape' }, { kind: 'escape' }];
  if (raw.startsWith('\x1b')) return [parseEscape(raw)];
  if (raw.length === 1 && raw < ' ') {
    return [{ kind: 'ctrl', key: String.fromCharCode(raw.charCodeAt(0) + 96) }];
  }
  // "text\r" in one chunk is typing followed by Enter (tmux send-keys, fast typists), not a paste.
  const body = raw.slice(0, -1);
  if (raw.endsWith('\r') && !/[\r\n]/.test(body)) {
    const text = cleanText(body);
    return text ? [{ kind: 'text', text, paste: false }, { kind: 'submit' }] : [{ kind: 'submit' }];
  }
  const text = cleanText(raw);
  if (!text) return [{ kind: 'ignored' }];
  return [{ kind: 'text', text, paste: [...raw].length > 1 }];
}

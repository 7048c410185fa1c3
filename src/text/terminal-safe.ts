/**
 * Text that mca did not style (tool output, model text, file names, error messages) must never drive the
 * terminal: an escape sequence in it could set the window title, write the clipboard (OSC 52), hide text
 * (SGR 8) or move the cursor over what the user is reading. `neutralizeControlSequences` turns every control
 * character into a visible stand-in so the text still shows what it contained, and nothing it contained acts.
 *
 * Kept: newline and tab. CR LF becomes LF; a lone CR (which would let later text overwrite a line) is shown.
 * Shown visibly: C0 controls as their Unicode control pictures (ESC → ␛), DEL as ␡, C1 controls and the
 * bidirectional overrides/isolates (which reorder what is displayed, "Trojan Source") as `<U+XXXX>`.
 * A leaf module with no imports, so the REPL, print mode and every other writer share it.
 */

// Matching control characters is the point of this module.
/* eslint-disable no-control-regex */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const UNSAFE = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
/* eslint-enable no-control-regex */

function visible(char: string): string {
  if (char === '\r\n') return '\n';
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

export function neutralizeControlSequences(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** True when the text holds anything `neutralizeControlSequences` would change. */
export function hasControlSequences(text: string): boolean {
  return CONTROL.test(text);
}

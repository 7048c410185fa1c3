/** Width helpers for fitting text to a terminal. Counts code points; wide CJK glyphs count as two. */

function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  // East Asian wide and full-width ranges, plus emoji: two columns.
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** Cuts `text` to at most `width` columns, ending with … when something was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const next = charWidth(char);
    if (used + next > width - 1) break;
    out += char;
    used += next;
  }
  return `${out}…`;
}

/** First line of `text`, cut to `width`; a … marks dropped lines too. */
export function firstLine(text: string, width: number): string {
  const [head = '', ...rest] = text.split('\n');
  return truncate(rest.length > 0 && rest.some((line) => line.trim()) ? `${head} …` : head, width);
}
